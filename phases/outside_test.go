package phases

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/phases/layout"
	"github.com/rgit-dev/rgit/phases/plan"
	"github.com/rgit-dev/rgit/prompts"
)

// stray answers like scripted and, on every call, does one thing outside
// its workspace.
type stray struct {
	scripted
	act func(root string) error
}

func (s *stray) Run(ctx context.Context, task agents.Task) (agents.Result, error) {
	if err := s.act(task.Root); err != nil {
		return agents.Result{}, err
	}
	return s.scripted.Run(ctx, task)
}

func appendTo(path, line string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.WriteString(line)
	return err
}

// The outside-writes gate compares contents: an agent that appends to a
// README the user has already edited is caught on every call (12 of 12;
// comparing git status codes caught 0), the message names the file, and
// the user's edit plus nothing of the agent's reaches the phase's output.
// Creating, deleting, and writing a hook are caught too; an agent that
// stays in its workspace is not blamed for the user's own edit.
func TestOutsideWritesCompareContent(t *testing.T) {
	dir := testRepo(t)
	readme := filepath.Join(dir, "README")
	if err := os.WriteFile(readme, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, dir, "add", "README")
	gitIn(t, dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "readme")
	if err := appendTo(readme, "the user's edit\n"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("untracked\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	lay := layout.New(dir, "s")
	if err := os.MkdirAll(lay.File(layout.ProgressDir), 0o755); err != nil {
		t.Fatal(err)
	}
	research := func(a agents.Agent, topic string) callResult {
		cr := &callRunner{agents: &agentPool{newAgent: func(string) (agents.Agent, error) { return a, nil }},
			tmpl: prompts.Default(), lay: lay, clock: FixedClock(testNow), reporter: ReporterFunc(func(Event) {})}
		in := callInputs{vars: map[string]string{}, chain: []string{"stray"}, timeouts: map[string]int{}, sessions: map[string]string{}}
		j := topicJob{phase: PhaseResearch, topic: plan.Topic{Name: topic}, progress: lay.Progress(plan.Slug(topic)), output: lay.Progress(plan.Slug(topic)),
			vars: map[string]string{"topic": topic}, brief: agents.Brief{Topic: topic}, in: in}
		return cr.research(context.Background(), j).call
	}

	appender := &stray{scripted: scripted{name: "stray"}, act: func(root string) error { return appendTo(filepath.Join(root, "README"), "agent line\n") }}
	caught := 0
	for _, topic := range []string{"Moon", "Sun", "Earth"} {
		for _, a := range research(appender, topic).attempts {
			if a.failure != nil && strings.Contains(a.failure.msg, "agent wrote outside the workspace: README (changed)") {
				caught++
			}
		}
	}
	if got := strings.Count(readFile(t, readme), "agent line"); got != 12 || caught != 12 {
		t.Errorf("the agent appended %d times, the gate caught %d; want 12 and 12", got, caught)
	}

	for _, tc := range []struct {
		name, want string
		act        func(root string) error
	}{
		{"create", "stray.txt (created)", func(root string) error { return os.WriteFile(filepath.Join(root, "stray.txt"), []byte("x"), 0o644) }},
		{"delete untracked", "notes.txt (deleted)", func(root string) error { return os.Remove(filepath.Join(root, "notes.txt")) }},
		{"hook", ".git/hooks/pre-commit (created)", func(root string) error {
			return os.WriteFile(filepath.Join(root, ".git", "hooks", "pre-commit"), []byte("#!/bin/sh\n"), 0o755)
		}},
		{"chmod", "README (changed)", func(root string) error { return os.Chmod(filepath.Join(root, "README"), 0o755) }},
		{"stays inside", "", func(string) error { return nil }},
	} {
		res := research(&stray{scripted: scripted{name: "stray"}, act: tc.act}, "Mars "+tc.name)
		first := res.attempts[0]
		switch {
		case tc.want == "" && !first.ok:
			t.Errorf("%s: blamed for the user's own edit: %+v", tc.name, first.failure)
		case tc.want != "" && (first.failure == nil || !strings.Contains(first.failure.msg, tc.want)):
			t.Errorf("%s: first attempt %+v, want a failure naming %q", tc.name, first.failure, tc.want)
		}
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
