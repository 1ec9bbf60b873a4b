// Command fakeagents impersonates the agent CLIs claude, codex, gemini and
// opencode for tests. Build it once and symlink it under those names; it
// picks its role from argv[0]. Each role parses its real CLI's flags
// strictly (an unknown flag fails as the real one does: same stream, same
// exit status) and prints that CLI's real output formats. The failures
// replay output captured from the real binaries (see captures/).
//
// Environment:
//
//	FAKE_AGENT_SCENARIO  ok (default) | auth | ratelimit | quota | iserror |
//	                     truncated | hang
//	FAKE_AGENT_LOG       append one JSON line per call: argv, cwd, stdin, env subset
//	FAKE_AGENT_STATE     directory where sessions are remembered (resume of an
//	                     unknown session then fails as the real CLI does)
//	FAKE_AGENT_WRITE     file (relative to the working directory) to write the
//	                     prompt into, proving the agent may write there
//	FAKE_AGENT_PIDFILE   for hang: where the grandchild's pid is written
package main

import (
	"crypto/rand"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

//go:embed captures
var captures embed.FS

func main() {
	if os.Getenv("FAKE_AGENT_ROLE") == "grandchild" {
		time.Sleep(time.Hour)
		return
	}
	name := filepath.Base(os.Args[0])
	args := os.Args[1:]
	if code, ok := meta(name, args); ok {
		os.Exit(code)
	}
	switch name {
	case "claude":
		os.Exit(claude(args))
	case "codex":
		os.Exit(codex(args))
	case "gemini":
		os.Exit(gemini(args))
	case "opencode":
		os.Exit(opencode(args))
	}
	fmt.Fprintf(os.Stderr, "fakeagents: unknown role %q (symlink me as claude, codex, gemini or opencode)\n", name)
	os.Exit(2)
}

func scenario() string {
	if s := os.Getenv("FAKE_AGENT_SCENARIO"); s != "" {
		return s
	}
	return "ok"
}

// logCall records how the fake was called, for tests that assert on the
// command line the backend built.
func logCall(args []string, stdin string) {
	path := os.Getenv("FAKE_AGENT_LOG")
	if path == "" {
		return
	}
	cwd, _ := os.Getwd()
	env := map[string]string{}
	for _, k := range []string{"IS_SANDBOX", "OPENCODE_PERMISSION", "OPENCODE_ENABLE_EXA", "GEMINI_CLI_TRUST_WORKSPACE", "CLAUDECODE"} {
		if v, ok := os.LookupEnv(k); ok {
			env[k] = v
		}
	}
	line, _ := json.Marshal(map[string]any{"role": filepath.Base(os.Args[0]), "args": args,
		"cwd": cwd, "stdin": stdin, "env": env, "uid": os.Geteuid()})
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	f.Write(append(line, '\n'))
}

// readStdin reads piped input; a terminal or /dev/null gives "".
func readStdin() string {
	fi, err := os.Stdin.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice != 0 {
		return ""
	}
	b, _ := io.ReadAll(os.Stdin)
	return string(b)
}

// writeWorkspace writes the prompt to FAKE_AGENT_WRITE, as an agent
// writing its phase output would.
func writeWorkspace(prompt string) error {
	rel := os.Getenv("FAKE_AGENT_WRITE")
	if rel == "" {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(rel), 0o755); err != nil {
		return err
	}
	return os.WriteFile(rel, []byte(prompt), 0o644)
}

// hang starts a grandchild in the same process group, ignores SIGINT and
// SIGTERM, and waits forever: only SIGKILL to the whole group ends both.
func hang() {
	signal.Ignore(syscall.SIGINT, syscall.SIGTERM)
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "FAKE_AGENT_ROLE=grandchild")
	if err := cmd.Start(); err == nil {
		if p := os.Getenv("FAKE_AGENT_PIDFILE"); p != "" {
			os.WriteFile(p+".tmp", []byte(fmt.Sprint(cmd.Process.Pid)), 0o644)
			os.Rename(p+".tmp", p)
		}
	}
	for {
		// Not select{}: with no other goroutine the runtime would call that
		// a deadlock and exit.
		time.Sleep(time.Hour)
	}
}

// replay prints a captured real output file to w.
func replay(w io.Writer, name string) {
	b, err := captures.ReadFile("captures/" + name)
	if err != nil {
		panic(err)
	}
	w.Write(b)
}

// writePath is the absolute path the fake reports writing, or "".
func writePath() string {
	rel := os.Getenv("FAKE_AGENT_WRITE")
	if rel == "" {
		return ""
	}
	abs, _ := filepath.Abs(rel)
	return abs
}

func uuid() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// sessionKnown reports whether id was created by an earlier fake call;
// without FAKE_AGENT_STATE every id is accepted.
func sessionKnown(role, id string) bool {
	dir := os.Getenv("FAKE_AGENT_STATE")
	if dir == "" {
		return true
	}
	_, err := os.Stat(filepath.Join(dir, role+"-"+id))
	return err == nil
}

func rememberSession(role, id string) {
	if dir := os.Getenv("FAKE_AGENT_STATE"); dir != "" {
		os.WriteFile(filepath.Join(dir, role+"-"+id), nil, 0o644)
	}
}

func emit(v any) {
	b, _ := json.Marshal(v)
	os.Stdout.Write(append(b, '\n'))
}

func excerpt(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 40 {
		s = s[:40]
	}
	return s
}

// versions are what the real CLIs checked for these fakes print for
// --version.
var versions = map[string]string{"claude": "2.1.197 (Claude Code)", "codex": "codex-cli 0.169.0",
	"gemini": "0.61.0", "opencode": "1.18.33"}

// meta answers --version and the login-status commands (`claude auth
// status`, `codex login status`) with the real CLIs' output; the auth
// scenario reports no login.
func meta(name string, args []string) (int, bool) {
	switch {
	case len(args) == 1 && (args[0] == "--version" || args[0] == "-v" || args[0] == "-V"):
		fmt.Println(versions[name])
		return 0, true
	case name == "claude" && len(args) == 2 && args[0] == "auth" && args[1] == "status":
		if scenario() == "auth" {
			fmt.Println("{\n  \"loggedIn\": false,\n  \"authMethod\": \"none\",\n  \"apiProvider\": \"firstParty\"\n}")
			return 1, true
		}
		fmt.Println("{\n  \"loggedIn\": true,\n  \"authMethod\": \"api_key\",\n  \"apiProvider\": \"firstParty\"\n}")
		return 0, true
	case name == "codex" && len(args) == 2 && args[0] == "login" && args[1] == "status":
		if scenario() == "auth" {
			fmt.Fprintln(os.Stderr, "Not logged in")
			return 1, true
		}
		fmt.Fprintln(os.Stderr, "Logged in using an API key - sk-proj-***ABCDE")
		return 0, true
	}
	return 0, false
}
