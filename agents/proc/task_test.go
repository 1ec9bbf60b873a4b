package proc

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/rgit-dev/rgit/agents"
)

// lineParser answers with the lines it saw.
type lineParser struct{ lines []string }

func (p *lineParser) Line(b []byte)   { p.lines = append(p.lines, string(b)) }
func (p *lineParser) Session() string { return "" }
func (p *lineParser) Finish(res Result, env []string) (agents.Result, error) {
	return agents.Result{Text: strings.Join(p.lines, "\n")}, nil
}

// RunTask removes the call's secrets from the answer, not only from
// errors: a CLI may quote its key in a message that becomes a file.
func TestRunTaskRedactsAnswer(t *testing.T) {
	const key = "key-from-the-call-env-1234"
	c := Call{Backend: "claude", Binary: os.Args[0],
		Env: append(os.Environ(), "PROC_HELPER=answer", "RGIT_PROC_TEST_TOKEN="+key)}
	res, err := RunTask(context.Background(), agents.Task{Dir: t.TempDir()}, c, &lineParser{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "the key is [redacted]" {
		t.Errorf("answer = %q", res.Text)
	}
}

func TestExtraDir(t *testing.T) {
	tests := []struct{ output, want string }{
		{"", ""},
		{"/w/.research/s/progress/topic.md", ""},
		{"/w/.research/s/plan.md", ""},
		{"/w/reports/s/report.md", "/w/reports/s"},
		{"/w/.research/report.md", "/w/.research"},
		{"/w/.research/s2/x.md", "/w/.research/s2"},
	}
	for _, tt := range tests {
		if got := ExtraDir(agents.Task{Dir: "/w/.research/s", Output: tt.output}); got != tt.want {
			t.Errorf("ExtraDir(%q) = %q, want %q", tt.output, got, tt.want)
		}
	}
}

func TestDecodeLine(t *testing.T) {
	tests := []struct {
		line string
		ok   bool
		typ  string
	}{
		{`{"type":"result"}`, true, "result"},
		{"  \t{\"type\":\"init\"}\r", true, "init"},
		{`[SandboxDebug] {"type":"x"}`, false, ""},
		{`{"type":`, false, ""},
		{`["type"]`, false, ""},
		{"", false, ""},
	}
	for _, tt := range tests {
		var e struct{ Type string }
		if ok := DecodeLine([]byte(tt.line), &e); ok != tt.ok || e.Type != tt.typ {
			t.Errorf("DecodeLine(%q) = %v %q, want %v %q", tt.line, ok, e.Type, tt.ok, tt.typ)
		}
	}
}

func TestStripANSI(t *testing.T) {
	tests := []struct{ in, want string }{
		{"\x1b[91m\x1b[1mError: \x1b[0mSession not found", "Error: Session not found"},
		{"plain", "plain"},
		{"cut \x1b[91", "cut \x1b[91"},
	}
	for _, tt := range tests {
		if got := StripANSI(tt.in); got != tt.want {
			t.Errorf("StripANSI(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
