package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rgit-dev/rgit/phases"
)

func TestExitCodesAndHints(t *testing.T) {
	conflict := &phases.MergeConflictError{Name: "x", Branch: "research/x", Target: "main", Path: "reports/x/report.md"}
	moved := &phases.BranchMovedError{Name: "x", Branch: "research/x", Want: "aaaaaaaaaa", Got: "bbbbbbbbbb"}
	tests := []struct {
		name string
		err  error
		code int
		hint string // a part of the hint; "" = no hint
	}{
		{"ok", nil, exitOK, ""},
		{"usage", usagef("do this", "bad %s", "thing"), exitUsage, "do this"},
		{"bad input", fmt.Errorf("start: %w", &phases.BadInputError{Msg: "m", Hint: "fix it"}), exitUsage, "fix it"},
		{"flag", errors.New("flag provided but not defined: -x"), exitUsage, "rgit help"},
		{"locked", fmt.Errorf("x: %w", &phases.LockedError{}), exitLocked, "rgit cancel"},
		{"cancelled", phases.ErrCancelled, exitCancelled, ""},
		{"context", context.Canceled, exitCancelled, ""},
		{"merge conflict is a failure, not bad input", fmt.Errorf("finish: %w", conflict), exitFailure, "--merge-into BRANCH or --no-merge"},
		{"moved branch", moved, exitFailure, "git log research/x"},
		{"research failed is a failure naming how to resume", fmt.Errorf("run: %w", &phases.ResearchFailedError{Name: "x", Exhausted: 2, Agent: "claude", LastError: "500"}),
			exitFailure, "rgit research --name x --resume"},
		{"usage error names the command's help", flagUsageError(&cli.Context{Command: &cli.Command{Name: "log"}}, errors.New("flag provided but not defined: -wdie")),
			exitUsage, "Run 'rgit log --help'"},
		{"other", errors.New("disk on fire"), exitFailure, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := exitCode(tc.err); got != tc.code {
				t.Errorf("exitCode = %d, want %d", got, tc.code)
			}
			if tc.err == nil {
				return
			}
			hint := hintFor(tc.err)
			if (tc.hint == "") != (hint == "") || !strings.Contains(hint, tc.hint) {
				t.Errorf("hint %q, want one with %q", hint, tc.hint)
			}
		})
	}
}

func TestClockFrom(t *testing.T) {
	tests := []struct {
		env  string
		want time.Time // zero: the system clock
		bad  bool
	}{
		{"", time.Time{}, false},
		{"2026-01-01T00:00:00Z", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), false},
		{"  @1767225600 ", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), false},
		{"2026-01-01T01:00:00+01:00", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), false},
		{"yesterday", time.Time{}, true},
		{"@soon", time.Time{}, true},
	}
	for _, tc := range tests {
		c, err := clockFrom(func(string) string { return tc.env })
		if tc.bad {
			if exitCode(err) != exitUsage || !strings.Contains(err.Error(), "invalid RGIT_NOW") {
				t.Errorf("%q: err = %v", tc.env, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", tc.env, err)
		}
		if tc.want.IsZero() {
			if c != phases.SystemClock {
				t.Errorf("%q: not the system clock", tc.env)
			}
		} else if !c.Now().Equal(tc.want) {
			t.Errorf("%q: Now = %v, want %v", tc.env, c.Now(), tc.want)
		}
	}
}

func TestHintLines(t *testing.T) {
	var out, errb strings.Builder
	io := &IO{In: strings.NewReader(""), Out: &out, Err: &errb, Getenv: func(k string) string {
		if k == "RGIT_NOW" {
			return "never"
		}
		return ""
	}}
	if code := run(t.Context(), []string{"rgit", "list"}, io); code != exitUsage {
		t.Fatalf("exit %d", code)
	}
	want := "rgit: error: invalid RGIT_NOW \"never\"\nrgit: hint: set RGIT_NOW to an RFC 3339 time such as 2026-01-01T00:00:00Z, or @<unix seconds>, or unset it\n"
	if errb.String() != want || out.String() != "" {
		t.Errorf("stderr %q, stdout %q", errb.String(), out.String())
	}
}

func TestSuggest(t *testing.T) {
	cands := []string{"research", "status", "log", "list", "cancel", "agents", "completion"}
	for in, want := range map[string]string{"reserch": "research", "stauts": "status", "lgo": "log", "compl": "completion", "xyzzy": "", "lis": "list"} {
		if got := suggest(in, cands); got != want {
			t.Errorf("suggest(%q) = %q, want %q", in, got, want)
		}
	}
}
