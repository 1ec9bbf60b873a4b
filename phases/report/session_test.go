package report

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/phases/plan"
)

// fixture is a session as testdata/sessions/<name>/session.json holds it:
// Session's own fields, and the phase commits as subject and trailers, the
// way a command reads them from git.
type fixture struct {
	Session
	Phases []struct {
		Commit, Summary string
		When            time.Time
		Trailers        map[string]string
	}
}

// loadSession reads testdata/sessions/<name>: session.json, report.md and
// research_plan.md (optional).
func loadSession(t testing.TB, name string) *Session {
	t.Helper()
	dir := filepath.Join("testdata", "sessions", name)
	data, err := os.ReadFile(filepath.Join(dir, "session.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f fixture
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	s := f.Session
	for _, p := range f.Phases {
		row, ok := PhaseFromTrailers(p.Commit, p.When, p.Summary, func(k string) string { return p.Trailers[k] })
		if ok {
			s.Phases = append(s.Phases, row)
		}
	}
	if s.Report, err = os.ReadFile(filepath.Join(dir, "report.md")); err != nil {
		t.Fatal(err)
	}
	if src, err := os.ReadFile(filepath.Join(dir, "research_plan.md")); err == nil {
		if s.Plan, err = plan.Parse("research_plan.md", src); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	return &s
}

func TestPhaseFromTrailers(t *testing.T) {
	when := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		name     string
		trailers map[string]string
		want     Phase
		ok       bool
	}{
		{"not a phase", map[string]string{"Rgit-Run": "x"}, Phase{}, false},
		{"every trailer", map[string]string{"Rgit-Phase": "review", "Rgit-Iteration": "3", "Rgit-Topic": "T", "Rgit-Agent": "codex",
			"Rgit-Model": "gpt", "Rgit-Verdict": "accepted", "Rgit-Duration": "1m2.5s", "Rgit-Tokens": "1200", "Rgit-Cost": "0.0125"},
			Phase{Commit: "c", When: when, Summary: "s", Phase: "review", Iteration: 3, Topic: "T", Agent: "codex", Model: "gpt",
				Verdict: "accepted", Duration: 62500 * time.Millisecond, Tokens: 1200, CostUSD: 0.0125}, true},
		{"malformed numbers are unknown", map[string]string{"Rgit-Phase": "research", "Rgit-Iteration": "x", "Rgit-Duration": "soon",
			"Rgit-Tokens": "-4", "Rgit-Cost": "free"},
			Phase{Commit: "c", When: when, Summary: "s", Phase: "research"}, true},
		{"dollar sign tolerated", map[string]string{"Rgit-Phase": "plan", "Rgit-Cost": "$1.5"},
			Phase{Commit: "c", When: when, Summary: "s", Phase: "plan", CostUSD: 1.5}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := PhaseFromTrailers("c", when, "s", func(k string) string { return tt.trailers[k] })
			if got != tt.want || ok != tt.ok {
				t.Errorf("got %+v, %v\nwant %+v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestPhaseTotals(t *testing.T) {
	s := loadSession(t, "kitchen")
	got := PhaseTotals(s.Phases)
	want := []PhaseTotal{
		{Phase: "start", Commits: 1},
		{Phase: "plan", Commits: 1, Duration: 118200 * time.Millisecond, Tokens: 20000, CostUSD: 0.2},
		{Phase: "research", Commits: 2, Duration: 460 * time.Second, Tokens: 60000, CostUSD: 0.61},
		{Phase: "review", Commits: 1, Duration: 2 * time.Minute, Tokens: 45000, CostUSD: 0.25},
		{Phase: "synthesize", Commits: 1, Duration: 3 * time.Minute, Tokens: 60801, CostUSD: 0.4345},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Phase != w.Phase || g.Commits != w.Commits || g.Duration != w.Duration || g.Tokens != w.Tokens || !near(g.CostUSD, w.CostUSD) {
			t.Errorf("row %d: got %+v, want %+v", i, g, w)
		}
	}
	if used := s.AgentsUsed(); len(used) != 3 || used[0] != "claude" || used[1] != "codex" || used[2] != "local" {
		t.Errorf("AgentsUsed = %v", used)
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// goldenDir holds the expected outputs.
const goldenDir = "testdata/golden"

// golden compares got with the golden file name, or rewrites it with
// -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join(goldenDir, name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (review, then go test -update):\ngot:\n%s\nwant:\n%s", name, got, want)
	}
}

// readReport reads a report under testdata/reports.
func readReport(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "reports", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}
