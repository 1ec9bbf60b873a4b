package phases

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/rgit-dev/rgit/agents/local/index"
)

// FileLinks returns the report.Session.FileLink for a file written in dir:
// a local citation's path ("sync/mutex.go", the corpus root's label then
// the file, as the local researcher writes it) becomes the file's path
// relative to dir, slash-separated, or "" when no corpus root has it or
// the file is not on disk. inRepo keeps only files inside the repository
// (links a git host can follow); otherwise any file on this machine is
// linked, for a page read here.
func (v *ReportView) FileLinks(dir string, inRepo bool) func(path string) string {
	dirs := v.Corpus
	if len(dirs) == 0 {
		dirs = []string{v.Root}
	}
	var present []string
	for _, d := range dirs {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			present = append(present, d)
		}
	}
	roots, err := index.MakeRoots(present)
	if err != nil {
		return nil
	}
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return nil
	}
	return func(cited string) string {
		for _, r := range roots {
			rel, ok := strings.CutPrefix(cited, r.Label+"/")
			if !ok || rel == "" || strings.Contains(rel, "..") {
				continue
			}
			file := filepath.Join(r.Dir, filepath.FromSlash(rel))
			if fi, err := os.Stat(file); err != nil || !fi.Mode().IsRegular() {
				continue
			}
			if inRepo && !within(v.Root, file) {
				continue
			}
			link, err := filepath.Rel(absDir, file)
			if err != nil {
				continue
			}
			return filepath.ToSlash(link)
		}
		return ""
	}
}

// within says whether path is inside dir.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
