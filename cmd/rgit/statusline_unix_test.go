//go:build unix

package main

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// On a terminal, rgit research draws one status line and redraws it in
// place: elapsed time, the iteration, the call in flight with its agent,
// tokens and cost so far and the last verdict with its gaps. It clears
// it before the summary.
func TestStatusLineOnTerminal(t *testing.T) {
	dir := newRepo(t)
	cmd := rgitCmd(t, dir, "research", "--mock-mode", "--breadth", "2", "--depth", "0", "How do tides work?")
	cmd.Env = append(cmd.Env, "RGIT_NOW=2026-01-01T00:00:00Z", "TERM=xterm", "COLUMNS=")
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 24, Cols: 200}); err != nil {
		t.Fatal(err)
	}
	var stdout bytes.Buffer
	cmd.Stdin, cmd.Stderr, cmd.Stdout = tty, tty, &stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	var screen bytes.Buffer
	_, _ = io.Copy(&screen, ptmx) // ends with EIO once rgit closes the terminal
	if err := cmd.Wait(); err != nil {
		t.Fatalf("rgit: %v\n%s", err, screen.String())
	}
	out := screen.String()
	for _, want := range []string{
		clearLine + "rgit 00:00 · [1/7] · research \"",
		"(mock) · ",
		" tokens $0.00",
		"last review: accepted",
		"      done review in 0s (agent 0s) -> ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("terminal output lacks %q:\n%q", want, out)
		}
	}
	if strings.Contains(out, "[1/7] research     ") {
		t.Errorf("phase start lines printed on a terminal; the status line shows them:\n%q", out)
	}
	if !strings.HasSuffix(out, clearLine) {
		t.Errorf("status line not cleared at the end: %q", out[max(0, len(out)-120):])
	}
	if !strings.Contains(stdout.String(), "Research how-do-tides-work complete") {
		t.Errorf("summary missing from standard output:\n%s", stdout.String())
	}
}

// Without a terminal there is no status line and no escape code at all.
func TestNoEscapeCodesWithoutTerminal(t *testing.T) {
	dir := newRepo(t)
	cmd := rgitCmd(t, dir, "research", "--mock-mode", "--breadth", "2", "--depth", "0", "--verbose", "How do tides work?")
	cmd.Env = append(cmd.Env, "TERM=xterm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("rgit: %v\n%s", err, out)
	}
	if bytes.ContainsAny(out, "\r\x1b") {
		t.Errorf("escape codes without a terminal:\n%q", out)
	}
	if !bytes.Contains(out, []byte("research     \"")) || !bytes.Contains(out, []byte("(mock, attempt 1)")) {
		t.Errorf("no plain line per event:\n%s", out)
	}
}
