package mcpserver

import (
	"errors"
	"strings"
	"testing"

	"github.com/rgit-dev/rgit/agents/redact"
)

const markdown = "# How Tides Work\n\n## Executive Summary\n\nThe Moon pulls the oceans [1].\n"

// TestReport: only a session that is done has a report; running is "not
// finished"; failed is a tool error saying why, even if the sessions
// layer claims a report. Nothing but a done session reads as done.
func TestReport(t *testing.T) {
	repo := gitRepo(t)
	doneStatus := running("c9")
	doneStatus.State = Done
	stopped := running("c1")
	stopped.State = Stopped
	tests := []struct {
		name      string
		report    ReportView
		isError   bool
		want      []string
		notInText []string
	}{
		{"done", ReportView{Name: "tides", Branch: "research/tides", Finished: true, Title: "How Tides Work", Path: "reports/tides/report.md", Markdown: markdown, Status: doneStatus},
			false, []string{"report of session tides: reports/tides/report.md on branch research/tides", "# How Tides Work", "[1]"}, nil},
		{"running", ReportView{Name: "tides", Branch: "research/tides", Status: running("c1")},
			false, []string{"not finished: session tides is running (phase research, 1 of 3 topics complete)"}, []string{"# How Tides Work"}},
		{"stopped", ReportView{Name: "tides", Branch: "research/tides", Status: stopped},
			false, []string{"not finished: session tides is stopped (phase research, 1 of 3 topics complete); research_resume continues it"}, []string{"# How Tides Work", "until it is done"}},
		{"failed", ReportView{Name: "tides", Branch: "research/tides", Status: failed()},
			true, []string{"rgit: error: session tides failed, so it has no report: research tides/moon: every agent failed", "rgit: hint: "}, []string{"done"}},
		{"failed but claims a report", ReportView{Name: "tides", Finished: true, Markdown: markdown, Status: failed()},
			true, []string{"session tides failed"}, []string{"# How Tides Work", "done"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := connect(t, &fake{report: tt.report}, Options{Dir: repo})
			res, text, structured := call(t, cs, "research_report", map[string]any{"name": "tides"})
			if res.IsError != tt.isError {
				t.Errorf("IsError %v, want %v: %s", res.IsError, tt.isError, text)
			}
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("text does not say %q:\n%s", w, text)
				}
			}
			for _, w := range tt.notInText {
				if strings.Contains(text, w) || strings.Contains(structured, w) {
					t.Errorf("answer says %q:\n%s\n%s", w, text, structured)
				}
			}
			if tt.name == "running" && !strings.Contains(structured, `"finished":false`) {
				t.Errorf("structured: %s", structured)
			}
		})
	}
}

// TestNoSecretLeaves: secrets in whatever Sessions returns, answers and
// errors alike, reach no tool result.
func TestNoSecretLeaves(t *testing.T) {
	const secret = "hunter2-very-secret-value"
	const shaped = "sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAAAA"
	repo := gitRepo(t)
	leaky := failed()
	leaky.Error = "401 from https://user:" + secret + "@api.example.com with key " + shaped
	leaky.Events = []Event{{Text: "retrying with " + secret}}
	leaky.Topic = secret
	f := &fake{statuses: []StatusView{leaky}, items: []ListItem{{Name: "tides", Topic: shaped}},
		report: ReportView{Name: "tides", Finished: true, Markdown: "# T\n" + secret, Status: StatusView{State: Done, Error: shaped}}}
	cs := connect(t, f, Options{Dir: repo, Redactor: redact.New([]string{"MY_TOKEN=" + secret})})
	check := func(what, text, structured string) {
		t.Helper()
		for _, s := range []string{secret, shaped} {
			if strings.Contains(text, s) || strings.Contains(structured, s) {
				t.Errorf("%s leaks %s:\n%s\n%s", what, s, text, structured)
			}
		}
		if !strings.Contains(text+structured, redact.Marker) {
			t.Errorf("%s: nothing redacted:\n%s\n%s", what, text, structured)
		}
	}
	for _, tool := range []string{"research_status", "research_list", "research_report"} {
		_, text, structured := call(t, cs, tool, map[string]any{"name": "tides"})
		if tool == "research_list" {
			_, text, structured = call(t, cs, tool, nil)
		}
		check(tool, text, structured)
	}
	f.err = errors.New("start codex with OPENAI_API_KEY=" + shaped)
	for _, tool := range []string{"research_start", "research_cancel", "research_resume"} {
		_, text, structured := call(t, cs, tool, map[string]any{"topic": "t", "name": "tides"})
		if tool != "research_start" {
			_, text, structured = call(t, cs, tool, map[string]any{"name": "tides"})
		}
		check(tool+" error", text, structured)
	}
}
