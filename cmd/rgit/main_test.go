package main

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite testscript golden sections")

// TestMain lets the test binary act as rgit, both for testscript and for
// the crash test, which starts it as a real process it can SIGKILL.
func TestMain(m *testing.M) {
	if os.Getenv("RGIT_TEST_AS_RGIT") == "1" {
		os.Exit(rgitMain())
	}
	testscript.Main(m, map[string]func(){
		"rgit": func() { os.Exit(rgitMain()) },
	})
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("..", "..", "testdata", "script"),
		UpdateScripts:       *update,
		RequireExplicitExec: false,
		Setup: func(env *testscript.Env) error {
			env.Setenv("HOME", env.WorkDir)
			env.Setenv("GIT_AUTHOR_NAME", "Ada Researcher")
			env.Setenv("GIT_AUTHOR_EMAIL", "ada@example.com")
			env.Setenv("GIT_COMMITTER_NAME", "Ada Researcher")
			env.Setenv("GIT_COMMITTER_EMAIL", "ada@example.com")
			env.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			env.Setenv("RGIT_MODEL", "")
			return nil
		},
	})
}
