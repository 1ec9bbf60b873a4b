package phases

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
)

// reorganizeArchive materialises the session's history of intermediate
// files as plain files: .research/<name>/archive/<run-token>/<NNNN>-<phase>/...
// History is the archive; this is for people who want files.
func (r *run) reorganizeArchive() (int, error) {
	commits, err := r.store.Log(r.branch, 0)
	if err != nil {
		return 0, fmt.Errorf("read history: %w", err)
	}
	prefix := ".research/" + r.name + "/"
	written := 0
	for i := len(commits) - 1; i >= 0; i-- {
		c := commits[i]
		token := c.Trailer("Rgit-Run")
		phase := c.Trailer("Rgit-Phase")
		if token == "" || phase == "" || strings.ContainsAny(token, "/\\") || strings.Contains(token, "..") {
			continue
		}
		files, err := r.store.ListFiles(c.Hash, strings.TrimSuffix(prefix, "/"))
		if err != nil {
			return written, fmt.Errorf("list %s: %w", c.Hash, err)
		}
		dir := filepath.Join(r.ws, "archive", token, fmt.Sprintf("%04d-%s", len(commits)-i, phase))
		for _, f := range files {
			rel := strings.TrimPrefix(f, prefix)
			if !isIntermediate(rel) {
				continue
			}
			data, err := r.store.ReadFile(c.Hash, f)
			if err != nil {
				return written, fmt.Errorf("read %s at %s: %w", f, c.Hash, err)
			}
			// Per-topic files are flattened with the topic first, as the seed asks.
			name := rel
			if strings.HasPrefix(rel, "progress/") {
				name = strings.TrimSuffix(path.Base(rel), ".md") + ".progress.md"
			}
			if err := writeFile(filepath.Join(dir, filepath.FromSlash(name)), data); err != nil {
				return written, fmt.Errorf("write archive: %w", err)
			}
			written++
		}
	}
	return written, nil
}

func isIntermediate(rel string) bool {
	for _, f := range intermediate {
		if rel == f || strings.HasPrefix(rel, f+"/") {
			return true
		}
	}
	return rel == "research_plan.md" || rel == "state.json"
}
