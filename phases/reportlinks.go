package phases

import (
	"bytes"
	"errors"
	"fmt"
	"os"

	"github.com/rgit-dev/rgit/phases/report"
)

// linkReport rewrites the finished report for git hosts, where it is read
// at reports/<name>/report.md: numbered citations link to their source's
// URL, local citations to the cited file and lines when the file is in the
// repository, and the topic tree is the plan's mermaid block. It runs at
// completion, so the agents of the final cycle read the report as they
// wrote it; ReportSession unlinks it again for the views, and linking an
// already linked report changes nothing.
func (r *run) linkReport() error {
	path := r.lay.Report()
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) || r.plan == nil {
		return nil
	} else if err != nil {
		return fmt.Errorf("read report: %w", err)
	}
	v := &ReportView{Root: r.lay.Root(), Corpus: r.state.Corpus}
	s := &report.Session{Report: report.Unlink(data), Plan: r.plan, FileLink: v.FileLinks(r.lay.Reports(), true)}
	var b bytes.Buffer
	if err := report.RenderMarkdown(&b, s); err != nil {
		return fmt.Errorf("link report: %w", err)
	}
	return writeFile(path, b.Bytes())
}
