package openai

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"
)

// Caps that keep tool answers within a small model's context.
const (
	maxReadBytes   = 256 << 10
	maxListEntries = 500
	maxMatches     = 100
)

// realPath resolves the symlinks of p's deepest existing ancestor and
// appends the rest, so a path that does not exist yet can still be checked
// against a root.
func realPath(p string) (string, error) {
	p = filepath.Clean(p)
	var rest []string
	for {
		real, err := filepath.EvalSymlinks(p)
		if err == nil {
			return filepath.Join(append([]string{real}, rest...)...), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(p)
		if parent == p {
			return "", err
		}
		rest = append([]string{filepath.Base(p)}, rest...)
		p = parent
	}
}

// within reports whether p is root or below it.
func within(p, root string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// resolve turns an untrusted path into an absolute real path: relative
// paths start at the workspace, control characters and .git are refused.
func (ws *workspace) resolve(p string) (string, error) {
	if strings.IndexFunc(p, unicode.IsControl) >= 0 {
		return "", fmt.Errorf("path %q contains control characters", p)
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(ws.dir, p)
	}
	real, err := realPath(p)
	if err != nil {
		return "", fmt.Errorf("resolve %s: %w", p, err)
	}
	for _, part := range strings.Split(real, string(filepath.Separator)) {
		if part == ".git" {
			return "", fmt.Errorf("path %s is inside a .git directory", p)
		}
	}
	return real, nil
}

// readable resolves p and checks it lies in the workspace or a corpus dir.
func (ws *workspace) readable(p string) (string, error) {
	real, err := ws.resolve(p)
	if err != nil {
		return "", err
	}
	for _, r := range ws.roots {
		if within(real, r) {
			return real, nil
		}
	}
	return "", fmt.Errorf("path %s is outside the workspace and the corpus", p)
}

// writable resolves p and checks it is inside the workspace or exactly the
// output file: model-chosen paths are untrusted.
func (ws *workspace) writable(p string) (string, error) {
	if p == "" {
		return "", errors.New("path is empty")
	}
	real, err := ws.resolve(p)
	if err != nil {
		return "", err
	}
	if real == ws.output {
		return real, nil
	}
	if !within(real, ws.dir) || real == ws.dir {
		return "", fmt.Errorf("path %s is outside the workspace %s; write there or to %s", p, ws.dir, ws.output)
	}
	return real, nil
}

func (ws *workspace) writeFile(p, content string) (string, error) {
	real, err := ws.writable(p)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
		return "", fmt.Errorf("create directory: %w", err)
	}
	if err := os.WriteFile(real, []byte(content), 0o644); err != nil {
		return "", fmt.Errorf("write %s: %w", p, err)
	}
	ws.noteWrite(real)
	return fmt.Sprintf("wrote %d bytes to %s", len(content), real), nil
}

func (ws *workspace) readFile(p string) (string, error) {
	real, err := ws.readable(p)
	if err != nil {
		return "", err
	}
	f, err := os.Open(real)
	if err != nil {
		return "", fmt.Errorf("open %s: %w", p, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxReadBytes+1))
	if err != nil {
		return "", fmt.Errorf("read %s: %w", p, err)
	}
	if len(data) > maxReadBytes {
		return string(data[:maxReadBytes]) + "\n[truncated]", nil
	}
	return string(data), nil
}
