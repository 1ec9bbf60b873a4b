package integrate

import (
	"fmt"
	"os"
	"path/filepath"
)

// Apply writes the files that changed. Each goes to a temporary file in
// its own directory, then every one is renamed over its target: a reader
// never sees half a file, and a failure while writing the temporaries
// leaves nothing behind, neither a target changed nor a temporary.
// Directories are created as needed; a file keeps its mode.
func Apply(files []File) error {
	type pending struct{ tmp, path string }
	var done []pending
	cleanup := func() {
		for _, p := range done {
			os.Remove(p.tmp)
		}
	}
	for _, f := range files {
		if !f.Changed() {
			continue
		}
		tmp, err := writeTemp(f)
		if err != nil {
			cleanup()
			return err
		}
		done = append(done, pending{tmp, f.Path})
	}
	for i, p := range done {
		if err := os.Rename(p.tmp, p.path); err != nil {
			for _, q := range done[i:] {
				os.Remove(q.tmp)
			}
			return fmt.Errorf("write %s: %w", p.path, err)
		}
	}
	return nil
}

func writeTemp(f File) (string, error) {
	dir := filepath.Dir(f.Path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("create %s: %w", dir, err)
	}
	t, err := os.CreateTemp(dir, "."+filepath.Base(f.Path)+".rgit-*")
	if err != nil {
		return "", fmt.Errorf("write %s: %w", f.Path, err)
	}
	_, werr := t.Write(f.New)
	cerr := t.Close()
	if err := firstErr(werr, cerr, os.Chmod(t.Name(), f.Mode)); err != nil {
		os.Remove(t.Name())
		return "", fmt.Errorf("write %s: %w", f.Path, err)
	}
	return t.Name(), nil
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
