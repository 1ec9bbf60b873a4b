package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMCPScripts runs testdata/script/mcp/*.txtar, which drive `rgit mcp`
// over stdio with raw JSON-RPC through the mcp-client command.
func TestMCPScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           filepath.Join("..", "..", "testdata", "script", "mcp"),
		UpdateScripts: *update,
		Setup: func(env *testscript.Env) error {
			env.Setenv("HOME", env.WorkDir)
			for k, v := range map[string]string{"GIT_AUTHOR_NAME": "Ada Researcher", "GIT_AUTHOR_EMAIL": "ada@example.com",
				"GIT_COMMITTER_NAME": "Ada Researcher", "GIT_COMMITTER_EMAIL": "ada@example.com", "GIT_CONFIG_NOSYSTEM": "1", "RGIT_MODEL": ""} {
				env.Setenv(k, v)
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){"mcp-client": mcpClient, "exits": cmdExits},
	})
}

// clientEnv are the variables mcp-client passes on to rgit mcp.
var clientEnv = []string{"PATH", "HOME", "TMPDIR", "WORK", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME",
	"GIT_COMMITTER_EMAIL", "GIT_CONFIG_NOSYSTEM", "RGIT_MODEL", "OPENAI_API_KEY"}

// mcpClient is `mcp-client FILE`: it starts `rgit mcp` in the script's
// directory and sends it FILE's lines one by one, as an MCP client does:
// after each request (a line with an id) it waits for the response with
// that id before the next line. Every line rgit mcp writes goes to stdout.
// At the end it closes rgit's input, which must then exit 0.
func mcpClient(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 || neg {
		ts.Fatalf("usage: mcp-client FILE")
	}
	requests := strings.Split(ts.ReadFile(args[0]), "\n")
	cmd := exec.Command(lookPath(ts, "rgit"), "mcp")
	cmd.Dir = ts.MkAbs(".")
	for _, k := range clientEnv {
		cmd.Env = append(cmd.Env, k+"="+ts.Getenv(k))
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	in, err := cmd.StdinPipe()
	ts.Check(err)
	out, err := cmd.StdoutPipe()
	ts.Check(err)
	ts.Check(cmd.Start())
	lines := make(chan []byte)
	go func() {
		r := bufio.NewReader(out)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 {
				lines <- line
			}
			if err != nil {
				close(lines)
				return
			}
		}
	}()
	for _, req := range requests {
		if strings.TrimSpace(req) == "" || strings.HasPrefix(req, "#") {
			continue
		}
		_, err := io.WriteString(in, req+"\n")
		ts.Check(err)
		var msg struct{ ID json.RawMessage }
		if json.Unmarshal([]byte(req), &msg) != nil || msg.ID == nil {
			continue // a notification: no answer
		}
		awaitResponse(ts, lines, string(msg.ID), &stderr)
	}
	in.Close()
	for line := range lines {
		fmt.Fprintf(ts.Stdout(), "%s", line)
	}
	if err := cmd.Wait(); err != nil {
		ts.Fatalf("rgit mcp: %v\n%s", err, stderr.String())
	}
}

// awaitResponse copies lines to stdout until the response to id.
func awaitResponse(ts *testscript.TestScript, lines <-chan []byte, id string, stderr *bytes.Buffer) {
	timeout := time.After(2 * time.Minute)
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				ts.Fatalf("rgit mcp exited before answering request %s\n%s", id, stderr.String())
			}
			fmt.Fprintf(ts.Stdout(), "%s", line)
			var msg struct{ ID json.RawMessage }
			if json.Unmarshal(line, &msg) == nil && string(msg.ID) == id {
				return
			}
		case <-timeout:
			ts.Fatalf("no response to request %s\n%s", id, stderr.String())
		}
	}
}

func lookPath(ts *testscript.TestScript, name string) string {
	for _, dir := range filepath.SplitList(ts.Getenv("PATH")) {
		if fi, err := os.Stat(filepath.Join(dir, name)); err == nil && !fi.IsDir() {
			return filepath.Join(dir, name)
		}
	}
	ts.Fatalf("%s not found in $PATH", name)
	return ""
}
