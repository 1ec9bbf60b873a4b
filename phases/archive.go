package phases

import (
	"fmt"
	"strings"

	"github.com/rgit-dev/rgit/phases/layout"
)

// reorganizeArchive materialises the session's history of intermediate
// files as plain files: .research/<name>/archive/<run-token>/<NNNN>-<phase>/...
// History is the archive; this is for people who want files.
func (r *run) reorganizeArchive() (int, error) {
	commits, err := r.store.Log(r.lay.Branch(), 0)
	if err != nil {
		return 0, fmt.Errorf("read history: %w", err)
	}
	written := 0
	for i := len(commits) - 1; i >= 0; i-- {
		c := commits[i]
		token := c.Trailer(string(TrailerRun))
		phase := c.Trailer(string(TrailerPhase))
		if token == "" || phase == "" || strings.ContainsAny(token, "/\\") || strings.Contains(token, "..") {
			continue
		}
		files, err := r.store.ListFiles(c.Hash, r.lay.WorkspaceTree())
		if err != nil {
			return written, fmt.Errorf("list %s: %w", c.Hash, err)
		}
		for _, f := range files {
			rel, ok := r.lay.WorkspaceRel(f)
			if !ok || !layout.Archived(rel) {
				continue
			}
			data, err := r.store.ReadFile(c.Hash, f)
			if err != nil {
				return written, fmt.Errorf("read %s at %s: %w", f, c.Hash, err)
			}
			if err := writeFile(r.lay.ArchiveEntry(token, len(commits)-i, phase, rel), data); err != nil {
				return written, fmt.Errorf("write archive: %w", err)
			}
			written++
		}
	}
	return written, nil
}
