package phases

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/rgit-dev/rgit/agents"
)

// "auto" that finds no agent is bad input before anything is written,
// unless the session has a corpus: a session started over --corpus and
// resumed without it goes on with the offline researcher.
func TestResolveAuto(t *testing.T) {
	dir := testRepo(t)
	corpus := t.TempDir()
	if err := os.WriteFile(filepath.Join(corpus, "tides.md"), []byte("# Tides\n\nThe moon pulls the sea.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stopping := &scripted{name: "local", failing: func(task agents.Task) error {
		if task.Phase == agents.PhaseResearch {
			return &agents.CallError{Backend: "local", Kind: agents.ErrAuth, Msg: "stop"}
		}
		return nil
	}}
	none := &agents.CallError{Backend: "auto", Kind: agents.ErrNotInstalled, Msg: "no usable agent"}
	deps := func(local agents.Agent, autoErr error) Deps {
		return Deps{NewAgent: func(spec string) (agents.Agent, error) {
			if spec == "auto" && autoErr != nil {
				return nil, autoErr
			}
			return local, nil
		}, Clock: FixedClock(testNow)}
	}
	cfg := Config{Dir: dir, Topic: "Why tides?", Breadth: 1, Depth: 0, Corpus: []string{corpus}}
	if _, err := Research(context.Background(), cfg, deps(stopping, nil)); !errors.Is(err, agents.ErrAuth) {
		t.Fatalf("first run: %v", err)
	}
	sum, err := Research(context.Background(), Config{Dir: dir, Name: "why-tides", Resume: true, Breadth: 1, Depth: 0}, deps(&scripted{name: "local"}, none))
	if err != nil || !sum.Finished {
		t.Fatalf("resume without --corpus: %v %+v", err, sum)
	}
	before := gitIn(t, dir, "for-each-ref")
	_, err = Research(context.Background(), Config{Dir: dir, Topic: "Why salt?", Breadth: 1, Depth: 0}, deps(&scripted{name: "local"}, none))
	assertBad(t, err, "no usable agent")
	if after := gitIn(t, dir, "for-each-ref"); after != before {
		t.Errorf("refs changed by a refused start:\n%s\n%s", before, after)
	}
}
