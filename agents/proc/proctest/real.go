package proctest

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/testdata/modelserver"
)

// KeyTail ends every API key the real-CLI tests hand out: no error
// message may carry it.
const KeyTail = "0123456789abcdef"

// RealBinary returns the installed CLI named by the variable env, and
// skips the test when it is not set (make e2e sets it after installing
// the pinned CLI).
func RealBinary(t *testing.T, env string) string {
	t.Helper()
	bin := os.Getenv(env)
	if bin == "" {
		t.Skip(env + " is not set")
	}
	return bin
}

// WantError fails t unless err is want and leaves out the test key.
func WantError(t *testing.T, err, want error) {
	t.Helper()
	if !errors.Is(err, want) || strings.Contains(err.Error(), KeyTail) {
		t.Fatalf("err = %v, want %v", err, want)
	}
}

// ErrorServer starts a server that answers every request with status
// and the JSON body, closed when the test ends, and returns its URL.
func ErrorServer(t *testing.T, status int, body string) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// Scripted tests a real CLI against the scripted model server: the CLI
// writes the output in the workspace through its own tool and its answer
// is parsed, and the server's rate limits and rejected keys come out as
// agents.ErrRateLimited and agents.ErrAuth.
type Scripted struct {
	Env string // the variable naming the installed CLI
	// New returns the backend running binary against the server at addr
	// (host:port), with its configuration under t.TempDir().
	New     func(t *testing.T, binary, addr string) agents.Agent
	Model   string
	Timeout time.Duration
	// Valid reports whether a successful result carries what the backend
	// reads besides the answer (session id, tokens).
	Valid func(agents.Result) bool
}

// Test runs the success and the two failures.
func (s Scripted) Test(t *testing.T) {
	bin := RealBinary(t, s.Env)
	failing := func(f modelserver.Failure) *modelserver.Script {
		return &modelserver.Script{Failures: slices.Repeat([]modelserver.Failure{f}, 20)}
	}
	tests := []struct {
		name    string
		script  *modelserver.Script
		wantErr error
	}{
		{"writes the output", &modelserver.Script{}, nil},
		{"rate limited", failing(modelserver.FailRateLimit()), agents.ErrRateLimited},
		{"bad key", failing(modelserver.FailAuth()), agents.ErrAuth},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			go modelserver.Serve(l, tt.script)
			a := s.New(t, bin, l.Addr().String())
			dir := filepath.Join(t.TempDir(), ".research", "s")
			out := filepath.Join(dir, "progress", "topic.md")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			task := agents.Task{Phase: agents.PhaseResearch, Dir: dir, Output: out, Timeout: s.Timeout,
				Model: s.Model, Prompt: "Research the topic \"Alpha\".\nWrite your findings to " + out + "\n"}
			res, err := a.Run(context.Background(), task)
			if tt.wantErr != nil {
				WantError(t, err, tt.wantErr)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			b, rerr := os.ReadFile(out)
			if rerr != nil || !strings.Contains(string(b), "## Findings") || !s.Valid(res) {
				t.Errorf("output %q (%v), result %+v", b, rerr, res)
			}
			if !slices.Equal(res.Files, []string{"progress/topic.md"}) {
				t.Errorf("files %q", res.Files)
			}
			t.Logf("result: %+v", res)
		})
	}
}
