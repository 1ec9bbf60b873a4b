package main

import (
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite testscript golden sections")

// TestMain lets the test binary act as rgit, both for testscript and for
// the process tests, which start it as a real process they can signal.
func TestMain(m *testing.M) {
	if os.Getenv("RGIT_TEST_AS_RGIT") == "1" {
		os.Exit(rgitMain())
	}
	testscript.Main(m, map[string]func(){
		"rgit": func() { os.Exit(rgitMain()) },
	})
}

// The scripts' clock and identities are fixed, so commit hashes, `rgit
// log`, `rgit status` and every printed duration are the same on every run.
const (
	scriptNow     = "2026-01-01T00:00:00Z"
	scriptGitDate = "@1767225600 +0000"
)

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("..", "..", "testdata", "script"),
		WorkdirRoot:         scriptRoot(t),
		UpdateScripts:       *update,
		RequireExplicitExec: false,
		Setup: func(env *testscript.Env) error {
			for k, v := range map[string]string{
				"HOME": env.WorkDir, "TZ": "UTC", "RGIT_NOW": scriptNow, "RGIT_MODEL": "",
				"GIT_AUTHOR_NAME": "Ada Researcher", "GIT_AUTHOR_EMAIL": "ada@example.com", "GIT_AUTHOR_DATE": scriptGitDate,
				"GIT_COMMITTER_NAME": "Ada Researcher", "GIT_COMMITTER_EMAIL": "ada@example.com", "GIT_COMMITTER_DATE": scriptGitDate,
				"GIT_CONFIG_NOSYSTEM": "1",
			} {
				env.Setenv(k, v)
			}
			env.Setenv("RGIT_ONLY_PATH", rgitOnlyPath(env.Getenv("PATH")))
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":             cmdExits,
			"rgit-interrupt":    cmdInterrupt,
			"check-export-json": cmdCheckExportJSON,
			"check-page":        cmdCheckPage,
			"wait-log":          cmdWaitLog,
			"kill-run":          cmdKillRun,
			"fstree":            cmdFstree,
		},
	})
}

// scriptRootLen is the length of every script's work root. The mock agent
// counts a prompt's bytes as tokens, prompts name the workspace by its
// absolute path, and tokens are written into commits: golden commit
// hashes need that path to have the same length on every machine.
const scriptRootLen = 120

// scriptRoot is a fresh directory whose path is scriptRootLen long.
func scriptRoot(t *testing.T) string {
	base := t.TempDir()
	pad := scriptRootLen - len(base) - len(string(filepath.Separator))
	if pad < 1 {
		t.Fatalf("temporary directory %s is longer than %d bytes; set TMPDIR to a shorter one", base, scriptRootLen)
	}
	root := filepath.Join(base, strings.Repeat("w", pad))
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	return root
}

// cmdExits is `exits STATUS command [args...]`: run the command and check
// its exit status; its standard output and error are the script's.
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits STATUS command [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: bad status %q", args[0])
	}
	err = ts.Exec(args[1], args[2:]...)
	if got := exitStatus(err); got != want {
		ts.Fatalf("%s exited with status %d, want %d (%v)", args[1], got, want, err)
	}
}

// scriptEnv are the variables a script may set that rgit reads.
var scriptEnv = []string{"PATH", "HOME", "TMPDIR", "TZ", "GOCOVERDIR", "GIT_CONFIG_NOSYSTEM",
	"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_AUTHOR_DATE", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_COMMITTER_DATE",
	"RGIT_NOW", "RGIT_MODEL", "RGIT_NAME", "RGIT_MOCK_FAIL", "RGIT_MOCK_DELAY", "RGIT_MOCK_COUNT"}

// cmdInterrupt is `rgit-interrupt PATTERN args...`: run rgit until a line
// of its standard error contains PATTERN, interrupt it as Ctrl-C does, and
// check that it exits 130 (cancelled, resumable).
func cmdInterrupt(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: rgit-interrupt PATTERN args...")
	}
	self, err := os.Executable()
	if err != nil {
		ts.Fatalf("%v", err)
	}
	cmd := exec.Command(self, args[1:]...)
	cmd.Args[0] = "rgit"
	cmd.Dir = ts.MkAbs(".")
	cmd.Env = []string{"RGIT_TEST_AS_RGIT=1"}
	for _, k := range scriptEnv {
		cmd.Env = append(cmd.Env, k+"="+ts.Getenv(k))
	}
	w, err := watch(cmd)
	if err != nil {
		ts.Fatalf("%v", err)
	}
	reached := w.until(func(line string) bool { return strings.Contains(line, args[0]) })
	if reached {
		interrupt(cmd.Process)
	}
	stdout, stderr, err := w.wait()
	ts.Stdout().Write([]byte(stdout))
	ts.Stderr().Write([]byte(stderr))
	if !reached {
		ts.Fatalf("rgit ended before printing %q (%v)", args[0], err)
	}
	if got := exitStatus(err); got != exitCancelled {
		ts.Fatalf("interrupted rgit exited with status %d, want %d", got, exitCancelled)
	}
}

func exitStatus(err error) int {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	return -1
}
