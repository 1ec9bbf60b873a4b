package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// evilTopic holds what a shared branch may carry: an OSC that retitles
// the terminal, a colour, a clear screen, a carriage return that
// overwrites the line, the 8-bit CSI and a bidi override.
const evilTopic = "Tides\x1b]0;pwned\x07 \x1b[31mred\x1b[0m\x1b[2J\rFAKE \u009b1m\u202eevil"

// rgitIn runs rgit in dir with buffers and returns stdout, stderr and
// the exit status.
func rgitIn(t *testing.T, dir string, args ...string) (string, string, int) {
	t.Helper()
	t.Chdir(dir)
	var out, errb bytes.Buffer
	env := map[string]string{"RGIT_NOW": "2026-01-01T00:00:00Z"}
	code := run(context.Background(), append([]string{"rgit"}, args...), &IO{In: strings.NewReader(""), Out: &out, Err: &errb,
		Getenv: func(k string) string {
			if v, ok := env[k]; ok {
				return v
			}
			return os.Getenv(k)
		}})
	return out.String(), errb.String(), code
}

// Session data printed by list, status and log, and quoted by errors, is
// made safe for the terminal: a session whose state.json (from someone
// else's branch) holds escape sequences prints them escaped, never raw
// (issue 12 point 6).
func TestPrintsSessionDataSafely(t *testing.T) {
	t.Setenv("GIT_AUTHOR_NAME", "Ada")
	t.Setenv("GIT_AUTHOR_EMAIL", "ada@example.com")
	t.Setenv("GIT_COMMITTER_NAME", "Ada")
	t.Setenv("GIT_COMMITTER_EMAIL", "ada@example.com")
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	git("commit", "-q", "--allow-empty", "-m", "start")
	if _, errs, code := rgitIn(t, dir, "research", "--mock-mode", "--breadth", "1", "--depth", "0", "--name", "tides", "--no-merge", "How do tides work?"); code != 0 {
		t.Fatalf("mock session: %d\n%s", code, errs)
	}
	// Someone else's commit on the session branch, with an evil topic.
	wt := filepath.Join(t.TempDir(), "wt")
	git("worktree", "add", "-q", wt, "research/tides")
	state := filepath.Join(wt, ".research", "tides", "state.json")
	data, err := os.ReadFile(state)
	if err != nil {
		t.Fatal(err)
	}
	quoted := strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(evilTopic, "\x1b", `\u001b`), "\x07", `\u0007`), "\r", `\r`), "\u009b", `\u009b`)
	data = bytes.Replace(data, []byte(`"How do tides work?"`), []byte(`"`+quoted+`"`), 1)
	if err := os.WriteFile(state, data, 0o644); err != nil {
		t.Fatal(err)
	}
	git("-C", wt, "commit", "-q", "-am", "shared: \x1b]0;pwned\x07 topic")
	git("worktree", "remove", "--force", wt)

	for _, args := range [][]string{{"list"}, {"status", "--name", "tides"}, {"log", "--name", "tides"}, {"research", "--name", "tides", "--mock-mode", "Another topic"}} {
		out, errs, _ := rgitIn(t, dir, args...)
		all := out + errs
		if i := strings.IndexFunc(all, func(r rune) bool { return r == 0x1b || r == 0x07 || r == '\r' || r == 0x9b || r == 0x202e }); i >= 0 {
			t.Errorf("rgit %s printed a raw control character at %d:\n%q", args[0], i, all)
		}
		if (args[0] == "list" || args[0] == "status") && !strings.Contains(all, `\x1b]0;pwned\x07`) {
			t.Errorf("rgit %s does not show the escaped topic:\n%s", args[0], all)
		}
	}
}
