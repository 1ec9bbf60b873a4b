package gitstore

import (
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitEnv pins identity and dates so tests do not depend on the machine's config.
var gitEnv = []string{
	"GIT_AUTHOR_NAME=Test", "GIT_AUTHOR_EMAIL=test@example.com",
	"GIT_COMMITTER_NAME=Test", "GIT_COMMITTER_EMAIL=test@example.com",
	"GIT_CONFIG_NOSYSTEM=1",
}

// git runs the git CLI in dir and fails the test on error.
func git(tb testing.TB, dir string, args ...string) string {
	tb.Helper()
	out, err := gitErr(dir, args...)
	if err != nil {
		tb.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// gitErr runs the git CLI in dir and returns its combined output.
func gitErr(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), gitEnv...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// newRepo makes a repository with one commit on main holding README.md.
func newRepo(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	git(tb, dir, "init", "-q", "-b", "main")
	writeFile(tb, filepath.Join(dir, "README.md"), "hello\n")
	git(tb, dir, "add", "README.md")
	git(tb, dir, "commit", "-q", "-m", "init")
	return dir
}

// open opens a Store on dir and closes it when the test ends.
func open(tb testing.TB, dir string) *Store {
	tb.Helper()
	s, err := Open(dir)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// writeFile writes a file, creating its directory.
func writeFile(tb testing.TB, p, content string) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// fsck fails the test unless `git fsck --strict` is clean.
func fsck(tb testing.TB, dir string) {
	tb.Helper()
	if out, err := gitErr(dir, "fsck", "--strict", "--no-progress"); err != nil || strings.TrimSpace(out) != "" {
		tb.Fatalf("git fsck --strict: %v\n%s", err, out)
	}
}

// userState is what the user sees of their index and working tree.
func userState(tb testing.TB, dir string) string {
	tb.Helper()
	return git(tb, dir, "status", "--porcelain=v2", "--untracked-files=all") +
		"\n--diff--\n" + git(tb, dir, "diff") + "\n--cached--\n" + git(tb, dir, "diff", "--cached")
}

// gitCmd prepares a git command in dir with the test environment.
func gitCmd(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), gitEnv...)
	return cmd
}

// treeListing describes every file and directory below dir (path, mode,
// size, modification time and, for files, content), so a test can check
// that an operation left dir byte-identical.
func treeListing(tb testing.TB, dir string) string {
	tb.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fmt.Fprintf(&b, "%s %v %d %d", rel, fi.Mode(), fi.Size(), fi.ModTime().UnixNano())
		if fi.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, " %x", sha256.Sum256(data))
		}
		b.WriteByte('\n')
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return b.String()
}

// setHook installs fn as the kill-point hook for one test. Tests that set
// it must not run in parallel.
func setHook(tb testing.TB, fn func(point string)) {
	tb.Helper()
	testHook = fn
	tb.Cleanup(func() { testHook = nil })
}

// fsckAfterCrash is fsck for a repository a killed writer used: a commit
// written just before the kill stays behind unreachable, as after a killed
// git commit, until gc prunes it. Anything else is an error.
func fsckAfterCrash(tb testing.TB, dir string) {
	tb.Helper()
	if out, err := gitErr(dir, "fsck", "--strict", "--no-progress", "--no-dangling"); err != nil || strings.TrimSpace(out) != "" {
		tb.Fatalf("git fsck --strict: %v\n%s", err, out)
	}
}
