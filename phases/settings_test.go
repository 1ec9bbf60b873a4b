package phases

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/agents"
)

func TestNewSettings(t *testing.T) {
	cfg := Config{Topic: "t", Breadth: 2, Depth: 1, Model: "claude:x", ReviewModel: "codex:y", Timeout: 90 * time.Second,
		TimeBudget: 2 * time.Minute, Fallback: []string{"local"}, MaxPerTopic: 2, Corpus: []string{"/c"}}
	if _, err := cfg.Normalize(); err != nil {
		t.Fatal(err)
	}
	got := newSettings(cfg, "main")
	if pt := got.PhaseTimeouts; pt == nil || pt.Seconds[PhaseResearch] != 90 || pt.FinalReviewMax != 0 {
		t.Errorf("newSettings phase timeouts = %+v, want 90s for every phase", pt)
	}
	got.PhaseTimeouts, got.RetryLimits = nil, nil // the rest is timeouts_test.go's and twotier_test.go's
	want := Settings{Breadth: 2, Depth: 1, MaxIterations: 9, Model: "claude:x", ReviewModel: "codex:y", Timeout: 90,
		TargetBranch: "main", Fallback: []string{"local"}, TimeBudgetS: 120, MaxPerTopic: 2, Corpus: []string{"/c"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("newSettings =\n%+v\nwant\n%+v", got, want)
	}
	cfg.MockMode = true
	if s := newSettings(cfg, ""); s.Model != "mock" || s.ReviewModel != "mock" || !s.MockMode {
		t.Errorf("--mock-mode: %+v", s)
	}
}

func TestResumeSettings(t *testing.T) {
	prior := Settings{Breadth: 2, Depth: 1, MaxIterations: 9, Model: "claude:x", ReviewModel: "codex:y", Timeout: 90,
		TargetBranch: "main", Fallback: []string{"local"}, TimeBudgetS: 120, MaxPerTopic: 2, Corpus: []string{"/c"}, Jobs: 4}
	with := func(f func(*Settings)) Settings {
		s := prior
		f(&s)
		return s
	}
	tests := []struct {
		name   string
		cfg    Config // as cmd passes it for --resume
		want   Settings
		raised bool
	}{
		{"nothing asked keeps everything", Config{Model: "auto", ReviewModel: "auto"}, prior, false},
		{"a higher explicit limit is raised", Config{MaxIterations: 20, explicitMax: true}, with(func(s *Settings) { s.MaxIterations = 20 }), true},
		{"a lower explicit limit is ignored", Config{MaxIterations: 5, explicitMax: true}, prior, false},
		{"the computed minimum is not a request", Config{MaxIterations: 50}, prior, false},
		{"named agents replace", Config{Model: "gemini:z", ReviewModel: "local"}, with(func(s *Settings) { s.Model, s.ReviewModel = "gemini:z", "local" }), false},
		{"mock mode replaces both", Config{Model: "claude:q", MockMode: true}, with(func(s *Settings) { s.Model, s.ReviewModel, s.MockMode = "mock", "mock", true }), false},
		{"fallback, corpus, timeout, target", Config{Fallback: []string{"mock"}, Corpus: []string{"/d"}, Timeout: time.Minute, MergeInto: "other"},
			with(func(s *Settings) {
				s.Fallback, s.Corpus, s.Timeout, s.TargetBranch = []string{"mock"}, []string{"/d"}, 60, "other"
			}), false},
		{"breadth, depth and pass cap are the session's", Config{Breadth: 5, Depth: 3, MaxPerTopic: 9}, prior, false},
		{"a new time budget is the run's", Config{TimeBudget: time.Hour}, with(func(s *Settings) { s.TimeBudgetS = 3600 }), true},
		{"the session's minimum, not the flags'", Config{Breadth: 3, Depth: 3, MaxIterations: 8, explicitMax: true}, prior, false},
		{"an explicit limit below the session's minimum raises to it", Config{MaxIterations: 3, explicitMax: true},
			with(func(s *Settings) { s.MaxIterations = 9 }), false},
		{"--jobs replaces the recorded jobs", Config{Jobs: 8}, with(func(s *Settings) { s.Jobs = 8 }), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, raised := resumeSettings(prior, tc.cfg)
			got.PhaseTimeouts, got.RetryLimits = nil, nil // timeouts_test.go and twotier_test.go check them
			if !reflect.DeepEqual(got, tc.want) || raised != tc.raised {
				t.Errorf("resumeSettings =\n%+v raised %v\nwant\n%+v raised %v", got, raised, tc.want, tc.raised)
			}
		})
	}
}

func TestChain(t *testing.T) {
	s := Settings{Model: "a", ReviewModel: "r", Fallback: []string{"b", "", "a", "c"}}
	tests := []struct {
		role     Role
		switches []Switch
		want     []string
	}{
		{RoleResearch, nil, []string{"a", "b", "c"}},
		{RoleReview, nil, []string{"r", "b", "a", "c"}},
		{RoleResearch, []Switch{{From: "a", To: "b"}}, []string{"b", "a", "c"}},
		{RoleResearch, []Switch{{From: "a", To: "b"}, {From: "b", To: "c"}}, []string{"c", "b", "a"}},
	}
	for _, tc := range tests {
		if got := s.chain(tc.role, tc.switches); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("chain(%s, %v) = %v, want %v", tc.role, tc.switches, got, tc.want)
		}
	}
}

// "auto" is recorded as the agent it stands for, so state.json, the
// trailers and the methodology name the agent that ran.
func TestResolvedAgentRecorded(t *testing.T) {
	dir := testRepo(t)
	a := &scripted{name: "fake"}
	var notes []string
	deps := Deps{
		NewAgent: func(spec string) (agents.Agent, error) {
			if spec != "fake:big" && spec != "fake:small" {
				return nil, fmt.Errorf("asked for %q", spec)
			}
			return a, nil
		},
		Resolve: func(spec string, role Role) (string, string) {
			if role == RoleReview {
				return "fake:small", "test review"
			}
			return "fake:big", "test"
		},
		Reporter: ReporterFunc(func(e Event) {
			if e.Kind == EventNotice {
				notes = append(notes, e.Message)
			}
		}),
	}
	cfg := Config{Dir: dir, Topic: "Why?", Breadth: 1, Depth: 0, Model: "auto", ReviewModel: "auto"}
	if _, err := Research(context.Background(), cfg, deps); err != nil {
		t.Fatal(err)
	}
	state := gitOut(t, dir, "show", "research/why:.research/why/state.json")
	for _, want := range []string{`"model": "fake:big"`, `"review_model": "fake:small"`} {
		if !strings.Contains(state, want) {
			t.Errorf("state.json lacks %s:\n%s", want, state)
		}
	}
	models := gitOut(t, dir, "log", "--format=%(trailers:key=Rgit-Model,valueonly)", "research/why")
	if strings.Contains(models, "auto") || !strings.Contains(models, "fake:big") || !strings.Contains(models, "fake:small") {
		t.Errorf("Rgit-Model trailers:\n%s", models)
	}
	report := gitOut(t, dir, "show", "main:reports/why/report.md")
	if !strings.Contains(report, "Agents: research fake:big, review fake:small.") {
		t.Errorf("methodology does not name the resolved agents:\n%s", report)
	}
	if got := strings.Join(notes, "\n"); !strings.Contains(got, "research agent: fake:big (auto: test)") {
		t.Errorf("notices:\n%s", got)
	}
}
