// Package proctest builds the fake agent CLIs of testdata/fakeagents for
// tests: one binary, symlinked as claude, codex, gemini and opencode.
package proctest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
