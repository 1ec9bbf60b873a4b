package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/openai"
	"github.com/rgit-dev/rgit/testdata/modelserver"
)

const testKey = "sk-test-4f9a2c7e1b8d6035aa"

// setup starts a scripted model server and returns an agent pointed at it.
func setup(t *testing.T, script *modelserver.Script) (*openai.Agent, *modelserver.Server) {
	t.Helper()
	ms := modelserver.New(script)
	srv := httptest.NewServer(ms)
	t.Cleanup(srv.Close)
	a := openai.New(openai.Options{BaseURL: srv.URL + "/v1", APIKey: testKey, Model: "scripted",
		RetryWait: time.Millisecond, MaxRetries: 3})
	return a, ms
}

// task lays out a session workspace and a prompt naming the output file.
func task(t *testing.T, phase agents.Phase, rel string) agents.Task {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, ".research", "s")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(root, rel)
	prompt := fmt.Sprintf("You are researching.\nTopic: Solar sails\nPlease research.\nWrite your output to: %s\n", out)
	if phase == agents.PhaseResearch {
		prompt += "End with a ## Subtopics section.\n"
	}
	return agents.Task{Phase: phase, Prompt: prompt, Dir: dir, Root: root, Output: out}
}

// assertNoKey fails when the API key appears in a result or an error.
func assertNoKey(t *testing.T, res agents.Result, err error) {
	t.Helper()
	all := fmt.Sprintf("%#v", res)
	if err != nil {
		all += err.Error() + fmt.Sprintf("%#v", err)
	}
	if strings.Contains(all, testKey) || strings.Contains(all, testKey[:len(testKey)-4]) {
		t.Errorf("API key leaked into result or error: %s", all)
	}
}

// assertNoKeyOnDisk fails when any file under root holds the API key.
func assertNoKeyOnDisk(t *testing.T, root string) {
	t.Helper()
	n := 0
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		b, err := os.ReadFile(path)
		if err == nil && strings.Contains(string(b), testKey[:len(testKey)-4]) {
			t.Errorf("API key written to %s", path)
		}
		return err
	})
	if err != nil || n == 0 {
		t.Errorf("scan %s: %d files, %v", root, n, err)
	}
}

func TestRunWritesPhaseOutputWithTools(t *testing.T) {
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<html><head><title>Sails</title><script>var x=1;</script></head><body><p>Light pressure &amp; sails.</p></body></html>")
	}))
	defer page.Close()
	cases := []struct {
		phase agents.Phase
		rel   string
		want  []string
	}{
		{agents.PhasePlan, ".research/s/research_plan.md", []string{"# Research Plan", "(Depth: 0)", "- Status: Pending"}},
		{agents.PhaseResearch, ".research/s/progress/solar-sails.md", []string{"## Findings", "## Sources", "## Knowledge Gaps", "## Subtopics"}},
		{agents.PhaseReview, ".research/s/review.json", []string{`"verdict":"accept"`}},
		{agents.PhaseSynthesize, "reports/s/report.md", []string{"## Executive Summary", "## Findings", "## Sources"}},
	}
	for _, tc := range cases {
		t.Run(string(tc.phase), func(t *testing.T) {
			script := &modelserver.Script{Before: []modelserver.Call{
				{Tool: "fetch_url", Args: map[string]any{"url": page.URL + "/sails"}},
				{Tool: "list_files", Args: map[string]any{}},
			}}
			a, ms := setup(t, script)
			tk := task(t, tc.phase, tc.rel)
			res, err := a.Run(context.Background(), tk)
			assertNoKey(t, res, err)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			assertNoKeyOnDisk(t, tk.Root)
			got, err := os.ReadFile(tk.Output)
			if err != nil {
				t.Fatalf("output not written: %v", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(got), w) {
					t.Errorf("output lacks %q:\n%s", w, got)
				}
			}
			srcs, _ := filepath.Glob(filepath.Join(tk.Dir, "sources", "*.md"))
			if len(srcs) != 1 {
				t.Fatalf("sources saved: %v, want one file", srcs)
			}
			src, _ := os.ReadFile(srcs[0])
			if !strings.Contains(string(src), "Light pressure & sails.") || strings.Contains(string(src), "var x") {
				t.Errorf("saved source text wrong:\n%s", src)
			}
			rel, _ := filepath.Rel(tk.Dir, tk.Output)
			wantFiles := []string{filepath.Join("sources", filepath.Base(srcs[0])), rel}
			if !slices.Equal(res.Files, wantFiles) {
				t.Errorf("Files = %v, want %v", res.Files, wantFiles)
			}
			reqs := ms.Requests()
			if len(reqs) != 4 { // fetch, list, write, final text
				t.Errorf("%d model calls, want 4", len(reqs))
			}
			for _, r := range reqs {
				if r.Header.Get("Authorization") != "Bearer "+testKey {
					t.Errorf("request without the bearer key: %q", r.Header.Get("Authorization"))
				}
				if !slices.Equal(r.Tools, []string{"list_files", "read_file", "search_files", "write_file", "fetch_url"}) {
					t.Errorf("tools offered = %v", r.Tools)
				}
			}
			if res.Usage.InputTokens == 0 || res.Usage.OutputTokens == 0 || res.Usage.Duration <= 0 {
				t.Errorf("usage not accounted: %+v", res.Usage)
			}
			if tc.phase == agents.PhaseReview && !strings.Contains(res.Text, `"verdict"`) {
				t.Errorf("review final text = %q, want the verdict JSON", res.Text)
			}
		})
	}
}

func TestRunPlainTextFallback(t *testing.T) {
	cases := []struct {
		name   string
		script modelserver.Script
		calls  int
	}{
		{"model answers in text", modelserver.Script{PlainText: true}, 1},
		{"server rejects tools", modelserver.Script{RejectTools: true}, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a, ms := setup(t, &tc.script)
			tk := task(t, agents.PhaseResearch, ".research/s/progress/solar-sails.md")
			res, err := a.Run(context.Background(), tk)
			assertNoKey(t, res, err)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if !strings.Contains(res.Text, "## Findings") || !strings.Contains(res.Text, "## Knowledge Gaps") {
				t.Errorf("Text lacks the phase output:\n%s", res.Text)
			}
			if _, err := os.Stat(tk.Output); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("output file should be left to the loop, stat: %v", err)
			}
			reqs := ms.Requests()
			if len(reqs) != tc.calls {
				t.Fatalf("%d model calls, want %d", len(reqs), tc.calls)
			}
			if last := reqs[len(reqs)-1]; tc.script.RejectTools && len(last.Tools) != 0 {
				t.Errorf("retry still offered tools %v", last.Tools)
			}
		})
	}
}

func TestRunRetriesTransientFailures(t *testing.T) {
	fast429 := modelserver.FailRateLimit()
	fast429.RetryAfter = 0
	a, ms := setup(t, &modelserver.Script{Failures: []modelserver.Failure{
		fast429, modelserver.FailServer(), modelserver.FailTruncated(),
	}})
	tk := task(t, agents.PhasePlan, ".research/s/research_plan.md")
	res, err := a.Run(context.Background(), tk)
	assertNoKey(t, res, err)
	if err != nil {
		t.Fatalf("Run after 429, 500 and a cut stream: %v", err)
	}
	if _, err := os.Stat(tk.Output); err != nil {
		t.Errorf("plan not written: %v", err)
	}
	var answers []string
	for _, r := range ms.Requests() {
		answers = append(answers, r.Answer)
	}
	want := []string{"fail:429", "fail:500", "truncated", "tool:write_file", "text"}
	if !slices.Equal(answers, want) {
		t.Errorf("server answers = %v, want %v", answers, want)
	}
}

func TestRunClassifiesErrors(t *testing.T) {
	rl := modelserver.FailRateLimit()
	rl.RetryAfter = 0
	cases := []struct {
		name     string
		failures []modelserver.Failure
		want     error // nil: a plain failure with no sentinel
		calls    int
	}{
		{"auth", []modelserver.Failure{modelserver.FailAuth()}, agents.ErrAuth, 1},
		{"quota", []modelserver.Failure{modelserver.FailQuota()}, agents.ErrQuota, 1},
		{"rate limit persists", []modelserver.Failure{rl, rl, rl, rl}, agents.ErrRateLimited, 4},
		{"server error persists", []modelserver.Failure{modelserver.FailServer(), modelserver.FailServer(), modelserver.FailServer(), modelserver.FailServer()}, nil, 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a, ms := setup(t, &modelserver.Script{Failures: tc.failures})
			res, err := a.Run(context.Background(), task(t, agents.PhasePlan, ".research/s/research_plan.md"))
			assertNoKey(t, res, err)
			var ce *agents.CallError
			if !errors.As(err, &ce) {
				t.Fatalf("err = %v, want a *agents.CallError", err)
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
			if tc.want == nil && ce.Kind != nil {
				t.Errorf("err kind = %v, want none", ce.Kind)
			}
			if n := len(ms.Requests()); n != tc.calls {
				t.Errorf("%d model calls, want %d", n, tc.calls)
			}
		})
	}
}

func TestRunEndpointDownAndTimeout(t *testing.T) {
	stop := make(chan struct{})
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-stop:
		}
	}))
	defer hang.Close()
	defer close(stop) // runs first: release the handler so Close can return
	down := httptest.NewServer(http.NotFoundHandler())
	downURL := down.URL
	down.Close()
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name    string
		ctx     context.Context
		base    string
		timeout time.Duration
		want    error
	}{
		{"connection refused", context.Background(), downURL + "/v1", 0, agents.ErrNotInstalled},
		{"deadline", context.Background(), hang.URL + "/v1", 50 * time.Millisecond, agents.ErrTimeout},
		{"cancelled by the user", cancelled, hang.URL + "/v1", 0, context.Canceled},
		{"base URL without scheme", context.Background(), "/v1", 0, agents.ErrNotInstalled},
		{"base URL with another scheme", context.Background(), "ftp://h/v1", 0, agents.ErrNotInstalled},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := openai.New(openai.Options{BaseURL: tc.base, APIKey: testKey, Model: "m", RetryWait: time.Millisecond, MaxRetries: 1})
			tk := task(t, agents.PhasePlan, ".research/s/research_plan.md")
			tk.Timeout = tc.timeout
			res, err := a.Run(tc.ctx, tk)
			assertNoKey(t, res, err)
			if !errors.Is(err, tc.want) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
		})
	}
}

func TestRunResumesSession(t *testing.T) {
	a, ms := setup(t, &modelserver.Script{})
	tk := task(t, agents.PhaseResearch, ".research/s/progress/solar-sails.md")
	first, err := a.Run(context.Background(), tk)
	if err != nil || first.SessionID == "" {
		t.Fatalf("first run: id %q, err %v", first.SessionID, err)
	}
	cases := []struct {
		name     string
		id       string
		messages int // in the first request of the run
		sameID   bool
	}{
		{"known id continues", first.SessionID, 2 + 3 + 1, true}, // system, prompt; call, result, answer; new prompt
		{"unknown id starts afresh", "oai-unknown", 2, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_ = os.Remove(tk.Output) // each run must write it itself
			before := len(ms.Requests())
			tk.SessionID = tc.id
			res, err := a.Run(context.Background(), tk)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(tk.Output); err != nil {
				t.Errorf("the resumed run did not write the output: %v", err)
			}
			var body struct{ Messages []json.RawMessage }
			if err := json.Unmarshal(ms.Requests()[before].Body, &body); err != nil {
				t.Fatal(err)
			}
			if len(body.Messages) != tc.messages || (res.SessionID == tc.id) != tc.sameID || res.SessionID == "" {
				t.Errorf("first request had %d messages, id %q; want %d messages, same id %v", len(body.Messages), res.SessionID, tc.messages, tc.sameID)
			}
		})
	}
}

func TestRunStopsAfterMaxTurns(t *testing.T) {
	list := modelserver.Call{Tool: "list_files", Args: map[string]any{}}
	ms := modelserver.New(&modelserver.Script{Before: []modelserver.Call{list, list, list, list, list}})
	srv := httptest.NewServer(ms)
	defer srv.Close()
	a := openai.New(openai.Options{BaseURL: srv.URL + "/v1", APIKey: testKey, Model: "m", MaxTurns: 3})
	tk := task(t, agents.PhasePlan, ".research/s/research_plan.md")
	res, err := a.Run(context.Background(), tk)
	assertNoKey(t, res, err)
	if err == nil || !strings.Contains(err.Error(), "stop after 3 turns") {
		t.Errorf("err = %v, want a stop after 3 turns", err)
	}
	if n := len(ms.Requests()); n != 3 {
		t.Errorf("%d model calls, want 3", n)
	}
}
