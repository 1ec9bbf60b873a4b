package mock

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/agents"
)

// phaseTask builds a ready-to-run task of each phase in a fresh workspace;
// revise gets an existing report to edit.
func phaseTask(t *testing.T, phase agents.Phase) agents.Task {
	t.Helper()
	root := t.TempDir()
	ws := filepath.Join(root, ".research", "s")
	task := agents.Task{Phase: phase, Dir: ws, Root: root, Output: filepath.Join(ws, "out.md"),
		Brief: agents.Brief{Question: "Q?", Breadth: 2, Depth: 1, Topic: "Key Mechanisms", CanSubdivide: true}}
	if phase == agents.PhaseRevise {
		if err := os.MkdirAll(ws, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(task.Output, []byte("# R\n\n## Executive Summary\n\nx\n\n## Findings\n\n## Sources\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		task.Brief.Gaps = []string{"Methodology: say more"}
	}
	return task
}

var allPhases = []agents.Phase{agents.PhasePlan, agents.PhaseResearch, agents.PhaseReview,
	agents.PhaseSynthesize, agents.PhaseFinalReview, agents.PhaseRevise, agents.PhaseRefine, agents.PhaseRecovery}

// TestFailureKinds injects every failure kind into every phase and checks
// what the caller sees: the error, the exit status and the output file.
func TestFailureKinds(t *testing.T) {
	for _, phase := range allPhases {
		t.Run(string(phase), func(t *testing.T) {
			for _, kind := range kinds {
				t.Run(kind, func(t *testing.T) {
					task := phaseTask(t, phase)
					before, _ := os.ReadFile(task.Output)
					a := New(Options{Fail: []Rule{{Kind: kind, Phase: phase}}})
					ctx, cancel := context.WithCancel(context.Background())
					defer cancel()
					switch kind {
					case KindTimeout:
						task.Timeout = time.Millisecond
					case KindHang:
						// Task.Timeout must not end a hang: only the caller's
						// cancel does, so a hang past its timeout reports
						// context.Canceled, never ErrTimeout.
						task.Timeout = time.Nanosecond
						cancel()
					}
					res, err := a.Run(ctx, task)
					after, readErr := os.ReadFile(task.Output)
					unchanged := string(before) == string(after) && (len(before) > 0) == (readErr == nil)
					var ce *agents.CallError
					switch kind {
					case KindTimeout:
						if !errors.Is(err, agents.ErrTimeout) || !errors.As(err, &ce) || ce.Backend != "mock" {
							t.Errorf("err = %v, want a mock CallError wrapping ErrTimeout", err)
						}
					case KindHang:
						if !errors.Is(err, context.Canceled) || errors.Is(err, agents.ErrTimeout) {
							t.Errorf("err = %v, want context.Canceled", err)
						}
					case KindError:
						if !errors.As(err, &ce) || ce.Exit != 1 || ce.Kind != nil || res.ExitCode != 1 {
							t.Errorf("err = %v, exit %d; want a plain CallError with exit 1", err, res.ExitCode)
						}
					case KindMissing:
						if err != nil || res.Text != "" || len(res.Files) != 0 {
							t.Errorf("Run = %+v, %v; want success with no text and no file", res, err)
						}
					case KindGarbage:
						if err != nil || string(after) != res.Text {
							t.Fatalf("Run = %v; file and final message should hold the same garbage", err)
						}
						if breaksContract(res.Text) == "" {
							t.Errorf("garbage %q satisfies a contract", res.Text)
						}
					case KindUnfetched:
						// The phase's own work; research and synthesis cite one
						// page more, which no Source of the result backs.
						u := UnfetchedURL(task.Brief.Topic)
						if task.Brief.Topic == "" {
							u = UnfetchedURL(task.Brief.Question)
						}
						cites := strings.Contains(string(after), u)
						want := phase == agents.PhaseResearch || phase == agents.PhaseSynthesize
						if want && err != nil || cites != want {
							t.Errorf("Run = %v; the output cites %s: %v", err, u, cites)
						}
						for _, s := range res.Sources {
							if s.URL == u {
								t.Errorf("the unfetched page is among the Sources")
							}
						}
					case KindReject:
						var v verdict
						review := phase == agents.PhaseReview || phase == agents.PhaseFinalReview
						plain := phaseTask(t, phase)
						_, plainErr := New(Options{}).Run(ctx, plain)
						plainOut, _ := os.ReadFile(plain.Output)
						switch {
						case review && (err != nil || json.Unmarshal(after, &v) != nil || v.Verdict != "reject" || len(v.Gaps) != 1):
							t.Errorf("review wrote %q (%v); want a reject verdict with one gap", after, err)
						case !review && ((err == nil) != (plainErr == nil) || string(after) != string(plainOut)):
							t.Errorf("%s: %v, %q; want it run as without the rule: %v, %q", phase, err, after, plainErr, plainOut)
						}
					}
					if kind != KindGarbage && kind != KindUnfetched && kind != KindReject && !unchanged {
						t.Errorf("%s changed the output file", kind)
					}
				})
			}
		})
	}
}

// breaksContract names why text fails every phase's gate, or "" when it
// would pass one of them.
func breaksContract(text string) string {
	for _, h := range []string{"# Research Plan", "## Findings", "## Sources", "## Executive Summary", "## Recovery notes"} {
		if hasHeading(text, h) {
			return ""
		}
	}
	var v verdict
	if json.Unmarshal([]byte(text), &v) == nil {
		return ""
	}
	return "no required heading and no JSON verdict"
}
