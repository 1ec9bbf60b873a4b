package mcpserver

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rgit-dev/rgit/agents/integrate"
	"github.com/rgit-dev/rgit/phases"
)

// TestToolsList: six tools with their schemas (required fields, limits, no
// unknown arguments), read-only hints on the three that only read, and
// every tool the Claude Code plugin's commands call is served.
func TestToolsList(t *testing.T) {
	cs := connect(t, &fake{}, Options{Dir: t.TempDir()})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	type schema struct {
		Required             []string
		AdditionalProperties *bool
		Properties           map[string]struct {
			Type             string
			Minimum, Maximum *float64
			Pattern          string
		}
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		b, _ := json.Marshal(tool.InputSchema)
		var s schema
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		if s.AdditionalProperties == nil || *s.AdditionalProperties {
			t.Errorf("%s accepts unknown arguments: %s", tool.Name, b)
		}
		if _, ok := s.Properties["repo"]; !ok {
			t.Errorf("%s has no repo argument", tool.Name)
		}
		readOnly := tool.Annotations != nil && tool.Annotations.ReadOnlyHint
		if want := slices.Contains([]string{"research_status", "research_report", "research_list"}, tool.Name); readOnly != want {
			t.Errorf("%s readOnlyHint %v, want %v", tool.Name, readOnly, want)
		}
		if tool.Description == "" || tool.OutputSchema == nil {
			t.Errorf("%s: no description or output schema", tool.Name)
		}
		if tool.Name == "research_start" {
			if !slices.Equal(s.Required, []string{"topic"}) || *s.Properties["breadth"].Minimum != 1 || *s.Properties["depth"].Maximum != 10 ||
				s.Properties["name"].Pattern != NamePattern || s.Properties["council"].Type != "array" {
				t.Errorf("research_start schema: %s", b)
			}
		}
	}
	want := []string{"research_cancel", "research_list", "research_report", "research_resume", "research_start", "research_status"}
	if slices.Sort(names); !slices.Equal(names, want) {
		t.Errorf("tools %v, want %v", names, want)
	}
	for _, tool := range integrate.PluginTools() {
		if !slices.Contains(names, tool) {
			t.Errorf("the Claude Code plugin calls %s, which is not served", tool)
		}
	}
}

// TestNamePattern: the schemas' name pattern accepts exactly what
// phases.ValidateName accepts.
func TestNamePattern(t *testing.T) {
	re := regexp.MustCompile(NamePattern)
	for _, name := range []string{"tides", "a", "how-do-tides-work", "v1.2_x", "Tides", "-x", ".x", "a b", "a/b", "", strings.Repeat("a", 64), strings.Repeat("a", 65), "x..y", "x.lock", "x."} {
		valid := phases.ValidateName(name) == nil
		// ValidateName also refuses "..", ".lock" and a trailing '.', which
		// the pattern lets through; the server calls ValidateName itself.
		extra := strings.Contains(name, "..") || strings.HasSuffix(name, ".lock") || strings.HasSuffix(name, ".")
		if re.MatchString(name) != valid && !extra {
			t.Errorf("%q: pattern %v, ValidateName %v", name, re.MatchString(name), valid)
		}
	}
}

// TestListCancelResume covers the other three tools' answers and errors.
func TestListCancelResume(t *testing.T) {
	repo := gitRepo(t)
	f := &fake{items: []ListItem{{Name: "tides", Topic: "How do tides work?", State: Running, Phase: "research", Topics: Counts{1, 3}, Iteration: 2, MaxIterations: 10}}}
	cs := connect(t, f, Options{Dir: repo})
	if _, text, structured := call(t, cs, "research_list", nil); !strings.Contains(text, "tides: running, phase research, 1 of 3 topics, iteration 2 of 10; How do tides work?") ||
		!strings.Contains(structured, `"sessions":[{`) {
		t.Errorf("list:\n%s\n%s", text, structured)
	}
	if _, text, _ := call(t, connect(t, &fake{}, Options{Dir: repo}), "research_list", nil); !strings.Contains(text, "no research sessions here") {
		t.Errorf("empty list: %s", text)
	}
	if res, text, _ := call(t, cs, "research_cancel", map[string]any{"name": "tides"}); res.IsError || !strings.Contains(text, "asked session tides to stop") {
		t.Errorf("cancel: %s", text)
	}
	if res, text, _ := call(t, cs, "research_resume", map[string]any{"name": "tides", "time_minutes": 2}); res.IsError || !strings.Contains(text, "resumed session tides") || f.resumed.TimeBudget != 120e9 {
		t.Errorf("resume: %s (%+v)", text, f.resumed)
	}
	if res, text, _ := call(t, cs, "research_resume", map[string]any{"name": "tides", "cost_usd": -1}); !res.IsError || !strings.Contains(text, "invalid cost_usd -1") {
		t.Errorf("resume with a negative budget: %s", text)
	}
	notRunning := &phases.BadInputError{Msg: `session "tides" is not running`, Hint: "run 'rgit status --name tides' to see its state"}
	f.err = notRunning
	if res, text, _ := call(t, cs, "research_cancel", map[string]any{"name": "tides"}); !res.IsError || text != "rgit: error: session \"tides\" is not running\nrgit: hint: run 'rgit status --name tides' to see its state" {
		t.Errorf("cancel of a stopped session: %s", text)
	}
	if want := "list cancel:tides resume:tides cancel:tides"; f.Calls() != want {
		t.Errorf("calls %q, want %q", f.Calls(), want)
	}
}
