package main

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdFstree is `fstree FILE`: write to FILE one line per file, folder and
// symlink under the current directory, .git included: its slash path,
// type, permissions, and for a file its size and SHA-256. Bad-input
// scripts compare the listing from before rgit ran with the one after, so
// "nothing written" covers refs, objects, the index, .git/info/exclude,
// .git/rgit/ and the worktree byte for byte. (Take both listings before any
// git command that may refresh the index.)
func cmdFstree(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: fstree FILE")
	}
	root := ts.MkAbs(".")
	var b strings.Builder
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		fi, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %s", filepath.ToSlash(rel), fi.Mode())
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			fmt.Fprintf(&b, " -> %s", target)
		case fi.Mode().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, " %d %x", len(data), sha256.Sum256(data))
		}
		b.WriteByte('\n')
		return nil
	})
	if err != nil {
		ts.Fatalf("fstree: %v", err)
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(b.String()), 0o644))
}

// rgitOnlyPath is a PATH holding the script's commands (rgit) and nothing
// else: scripts that need "no agent CLI installed" set it around one rgit
// run, whatever the machine has installed.
func rgitOnlyPath(path string) string {
	first, _, _ := strings.Cut(path, string(os.PathListSeparator))
	return first
}
