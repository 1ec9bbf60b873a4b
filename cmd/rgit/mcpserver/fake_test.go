package mcpserver

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rgit-dev/rgit/agents/redact"
	"github.com/rgit-dev/rgit/gitstore"
)

// fake is a Sessions that answers from canned values and records calls.
type fake struct {
	mu       sync.Mutex
	calls    []string
	started  StartRequest
	resumed  ResumeRequest
	statuses []StatusView // answered in turn; the last one again and again
	report   ReportView
	items    []ListItem
	err      error // returned by every method when set
}

func (f *fake) record(call string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, call)
	return f.err
}

func (f *fake) Calls() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return strings.Join(f.calls, " ")
}

func (f *fake) Start(_ context.Context, req StartRequest) (Started, error) {
	f.started = req
	return Started{Name: "tides", Branch: "research/tides", ProgressLog: req.Repo + "/.research/tides/progress.log", PID: 42}, f.record("start")
}

func (f *fake) Status(_ context.Context, repo, name string) (StatusView, error) {
	err := f.record("status:" + name)
	f.mu.Lock()
	defer f.mu.Unlock()
	v := f.statuses[0]
	if len(f.statuses) > 1 {
		f.statuses = f.statuses[1:]
	}
	return v, err
}

func (f *fake) Report(_ context.Context, repo, name string) (ReportView, error) {
	return f.report, f.record("report:" + name)
}

func (f *fake) List(_ context.Context, repo string) ([]ListItem, error) {
	return f.items, f.record("list")
}

func (f *fake) Cancel(_ context.Context, repo, name string) error {
	return f.record("cancel:" + name)
}

func (f *fake) Resume(_ context.Context, req ResumeRequest) (Started, error) {
	f.resumed = req
	return Started{Name: req.Name, Branch: "research/" + req.Name}, f.record("resume:" + req.Name)
}

// gitRepo is a fresh repository for the tools to work in.
func gitRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	s, _, err := gitstore.OpenOrInit(dir)
	if err != nil {
		t.Fatal(err)
	}
	root := s.Root()
	s.Close()
	return root
}

// connect serves s in memory and returns a connected client.
func connect(t *testing.T, s Sessions, o Options) *mcp.ClientSession {
	t.Helper()
	if o.Redactor == nil {
		o.Redactor = redact.New(nil)
	}
	if o.Poll == 0 {
		o.Poll = time.Millisecond
	}
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := New(s, o).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// call calls a tool and returns its text and its structured content as JSON.
func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (res *mcp.CallToolResult, text, structured string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text += tc.Text
		}
	}
	if res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		structured = string(b)
	}
	return res, text, structured
}
