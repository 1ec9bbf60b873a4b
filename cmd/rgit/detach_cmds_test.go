package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// scriptDeadline bounds every poll of the detached-session commands; a
// mock session ends in well under a second.
const scriptDeadline = time.Minute

// cmdWaitLog is `wait-log NAME REGEXP`: poll session NAME's progress log
// (in the script's directory) until a line matches.
func cmdWaitLog(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: wait-log NAME REGEXP")
	}
	re, err := regexp.Compile("(?m)" + args[1])
	ts.Check(err)
	path := ts.MkAbs(filepath.Join(".research", args[0], "progress.log"))
	poll(ts, "a line of "+path+" matching "+args[1], func() bool {
		b, _ := os.ReadFile(path)
		return re.Match(b)
	})
}

// cmdKillRun is `kill-run NAME`: kill the process running session NAME
// (its pid in outcome.json) as a crash or `kill -9` would, and wait until
// it is gone.
func cmdKillRun(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: kill-run NAME")
	}
	var o struct{ PID int }
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(filepath.Join(".research", args[0], "outcome.json"))), &o))
	if o.PID <= 0 {
		ts.Fatalf("no pid in the outcome of %s", args[0])
	}
	ts.Check(killHard(o.PID))
	poll(ts, fmt.Sprintf("the end of pid %d", o.PID), func() bool { return !processExists(o.PID) })
}

// poll checks cond until it holds or the deadline passes; no sleep, a
// ticker.
func poll(ts *testscript.TestScript, what string, cond func() bool) {
	deadline := time.After(scriptDeadline)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-deadline:
			ts.Fatalf("waited %s for %s", scriptDeadline, what)
		case <-tick.C:
		}
	}
}
