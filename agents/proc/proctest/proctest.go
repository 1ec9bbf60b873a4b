// Package proctest builds the fake agent CLIs of testdata/fakeagents for
// tests (one binary, symlinked as claude, codex, gemini and opencode) and
// holds the tests the CLI backends share: on the fakes (Backend) and
// against the real CLIs (Scripted, ErrorServer).
package proctest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Names are the roles the fake binary plays, chosen by argv[0].
var Names = []string{"claude", "codex", "gemini", "opencode"}

// Build compiles testdata/fakeagents into dir and links it under every
// name of Names, so dir can be put first on PATH. It must run inside the
// rgit module (any package directory of it will do) with the go tool on
// PATH; the build cache makes repeated calls cheap.
func Build(dir string) error {
	bin := filepath.Join(dir, "fakeagents")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/rgit-dev/rgit/testdata/fakeagents")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("build fake agents: %w\n%s", err, out)
	}
	for _, n := range Names {
		if err := os.Symlink(bin, filepath.Join(dir, n)); err != nil && !os.IsExist(err) {
			return fmt.Errorf("link fake %s: %w", n, err)
		}
	}
	return nil
}

// Setup builds the fakes into a new temporary directory for a TestMain
// and returns it with the function that removes it.
func Setup() (dir string, cleanup func(), err error) {
	dir, err = os.MkdirTemp("", "rgit-fakeagents-")
	if err != nil {
		return "", nil, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	if err := Build(dir); err != nil {
		cleanup()
		return "", nil, err
	}
	return dir, cleanup, nil
}

// fakes is the directory Main built the fakes into.
var fakes string

// Main is a TestMain for a backend's tests: it builds the fakes, runs the
// tests and exits with their status. Fake names the binaries it built.
func Main(m *testing.M) {
	dir, cleanup, err := Setup()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fakes = dir
	code := m.Run()
	cleanup()
	os.Exit(code)
}

// Fake returns the path of the fake CLI called name (one of Names), once
// Main has built them.
func Fake(name string) string { return filepath.Join(fakes, name) }

// Call is one invocation of a fake, as logged to FAKE_AGENT_LOG.
type Call struct {
	Role  string            `json:"role"`
	Args  []string          `json:"args"`
	Cwd   string            `json:"cwd"`
	Stdin string            `json:"stdin"`
	Env   map[string]string `json:"env"`
}

// ReadLog returns the calls logged to the FAKE_AGENT_LOG file at path.
func ReadLog(path string) ([]Call, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var calls []Call
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var c Call
		if err := json.Unmarshal(line, &c); err != nil {
			return nil, fmt.Errorf("read fake log: %w", err)
		}
		calls = append(calls, c)
	}
	return calls, nil
}
