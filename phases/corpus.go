package phases

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// corpusHint is how to go on from a --corpus that cannot be researched.
const corpusHint = "pass --corpus a directory of text files (Markdown, HTML, code, plain text)"

// checkCorpus refuses a --corpus directory that does not exist or holds no
// readable text: the offline researcher would otherwise "research" nothing
// and every topic would be exhausted. It stops at the first text file, so
// a large corpus costs one small read.
func checkCorpus(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return badInput(corpusHint, "--corpus %s does not exist", dir)
	case err != nil:
		return badInput(corpusHint, "--corpus %s: %v", dir, err)
	case !fi.IsDir():
		return badInput(corpusHint, "--corpus %s is not a directory", dir)
	}
	found := false
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable entry is skipped, as the researcher skips it
		}
		if p != dir && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && readableText(p) {
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	if err != nil {
		return badInput(corpusHint, "--corpus %s: %v", dir, err)
	}
	if !found {
		return badInput(corpusHint, "--corpus %s holds no readable text", dir)
	}
	return nil
}

// readableText says whether a file starts with text: not empty, no NUL
// byte, valid UTF-8 (the researcher's own test for binary files).
func readableText(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, 8000)
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return false
	}
	head := buf[:n]
	if n == len(buf) {
		// A rune cut off by the read is not invalid UTF-8.
		for i := 0; i < utf8.UTFMax && len(head) > 0 && !utf8.Valid(head); i++ {
			head = head[:len(head)-1]
		}
	}
	return len(bytes.TrimSpace(head)) > 0 && bytes.IndexByte(head, 0) < 0 && utf8.Valid(head)
}
