package phases

import (
	"errors"
	"os"
	"path/filepath"
)

// writeFile writes a workspace file in place. It need not be atomic: the
// branch head is the truth, and every run restores the workspace from it
// before doing anything, so a file torn by a kill is replaced, never
// committed. Writing in place also avoids creating a new inode per file per
// phase, which is most of rgit's own time per phase.
func writeFile(path string, data []byte) error {
	err := os.WriteFile(path, data, 0o644)
	if errors.Is(err, os.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		err = os.WriteFile(path, data, 0o644)
	}
	return err
}

// removeIfExists deletes a file, ignoring its absence.
func removeIfExists(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// appendFile appends data to a file, creating it.
func appendFile(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	return werr
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
