package prompts

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Install writes every default template missing from dir, creating dir
// if needed, and returns the paths it wrote. An existing file is never
// replaced, edited or not: the user's templates win. Each file appears
// whole or not at all, so a crash cannot leave a truncated template that
// would later pass for a user edit.
func Install(dir string) (written []string, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create template dir: %w", err)
	}
	for _, name := range Names {
		path := filepath.Join(dir, name)
		ok, err := createNew(path, defaultSet.src[name])
		if err != nil {
			return written, fmt.Errorf("install template %s: %w", name, err)
		}
		if ok {
			written = append(written, path)
		}
	}
	return written, nil
}

// createNew writes data to path unless path exists. It writes a
// temporary file and hard-links it into place: a link fails if the name
// exists, so a file the user creates meanwhile is never overwritten.
// Where links are unsupported it falls back to O_EXCL.
func createNew(path string, data []byte) (bool, error) {
	if _, err := os.Lstat(path); err == nil {
		return false, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path)+"-*")
	if err != nil {
		return false, err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return false, err
	}
	// CreateTemp makes the file private; a template is an ordinary file.
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return false, err
	}
	if err := tmp.Close(); err != nil {
		return false, err
	}
	err = os.Link(tmp.Name(), path)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, fs.ErrExist):
		return false, nil
	}
	return createExcl(path, data)
}

func createExcl(path string, data []byte) (bool, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(path)
		return false, err
	}
	return true, f.Close()
}
