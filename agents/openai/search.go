package openai

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// walkRoots visits the regular files under dir (or every root when dir is
// empty), skipping .git, until fn returns false.
func (ws *workspace) walkRoots(dirs []string, fn func(path string) bool) {
	for _, d := range dirs {
		stop := false
		_ = filepath.WalkDir(d, func(path string, e fs.DirEntry, err error) error {
			if err != nil || stop {
				return nil
			}
			if e.IsDir() && e.Name() == ".git" {
				return filepath.SkipDir
			}
			if e.Type().IsRegular() && !fn(path) {
				stop = true
				return filepath.SkipAll
			}
			return nil
		})
		if stop {
			return
		}
	}
}

func (ws *workspace) listFiles(p string) (string, error) {
	dirs := ws.roots
	if p != "" {
		real, err := ws.readable(p)
		if err != nil {
			return "", err
		}
		dirs = []string{real}
	}
	var b strings.Builder
	n := 0
	ws.walkRoots(dirs, func(path string) bool {
		if n == maxListEntries {
			b.WriteString("[more files not listed]\n")
			return false
		}
		n++
		b.WriteString(path + "\n")
		return true
	})
	if n == 0 {
		return "no files", nil
	}
	return b.String(), nil
}

func (ws *workspace) searchFiles(q string) (string, error) {
	if strings.TrimSpace(q) == "" {
		return "", errors.New("query is empty")
	}
	needle := bytes.ToLower([]byte(q))
	var b strings.Builder
	n := 0
	ws.walkRoots(ws.roots, func(path string) bool {
		data, err := os.ReadFile(path)
		if err != nil || bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
			return true // unreadable or binary
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<20)
		for line := 1; sc.Scan(); line++ {
			if bytes.Contains(bytes.ToLower(sc.Bytes()), needle) {
				fmt.Fprintf(&b, "%s:%d: %s\n", path, line, strings.TrimSpace(truncate(sc.Text(), 300)))
				if n++; n == maxMatches {
					b.WriteString("[more matches not shown]\n")
					return false
				}
			}
		}
		return true
	})
	if n == 0 {
		return "no matches", nil
	}
	return b.String(), nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
