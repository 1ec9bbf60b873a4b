package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
)

// startDetached starts `rgit research args...` in dir as a detached
// session and waits until it holds the session lock, relaying what it
// prints until then to relay, except its error and hint lines, which
// become the returned error (with the child's exit status) if it stops
// first.
func startDetached(dir string, args []string, relay io.Writer) (detached, error) {
	exe, err := os.Executable()
	if err != nil {
		return detached{}, fmt.Errorf("find rgit's executable: %w", err)
	}
	readyR, readyW, err := os.Pipe()
	if err != nil {
		return detached{}, fmt.Errorf("create pipe: %w", err)
	}
	defer readyR.Close()
	outR, outW, err := os.Pipe()
	if err != nil {
		readyW.Close()
		return detached{}, fmt.Errorf("create pipe: %w", err)
	}
	defer outR.Close()
	cmd := exec.Command(exe)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, outW, outW
	marker := detachProcess(cmd, readyW)
	cmd.Args = append([]string{os.Args[0], "research", "--" + readyFlag + "=" + marker}, args...)
	err = cmd.Start()
	readyW.Close()
	outW.Close()
	if err != nil {
		return detached{}, fmt.Errorf("start detached session: %w", err)
	}
	lines := make(chan relayed, 1)
	go func() { lines <- relayLines(outR, relay) }()
	msg := make(chan []byte, 1)
	go func() { b, _ := io.ReadAll(readyR); msg <- b }()
	var b []byte
	select {
	case b = <-msg:
	case <-time.After(readyTimeout):
		killDetached(cmd.Process)
		cmd.Wait()
		return detached{}, fmt.Errorf("start detached session: it did not start within %s", readyTimeout)
	}
	var d detached
	if len(b) > 0 && json.Unmarshal(b, &d) == nil && d.Name != "" {
		// The child points its standard output and error away before it
		// says so: the relay has reached the end of what it printed.
		<-lines
		_ = cmd.Process.Release()
		return d, nil
	}
	werr := cmd.Wait()
	out := <-lines
	code := childExitCode(werr)
	if code == 0 {
		return detached{}, fmt.Errorf("start detached session: it ended before it started")
	}
	if out.err == "" {
		out.err = fmt.Sprintf("the detached session exited with status %d before it started", code)
	}
	return detached{}, &statusError{code: code, msg: out.err, hint: out.hint}
}

// relayed are the error and hint lines a child printed.
type relayed struct{ err, hint string }

func relayLines(r io.Reader, w io.Writer) relayed {
	var out relayed
	var hints []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if msg, ok := strings.CutPrefix(line, "rgit: error: "); ok && out.err == "" {
			out.err = msg
		} else if h, ok := strings.CutPrefix(line, "rgit: hint: "); ok {
			hints = append(hints, h)
		} else {
			fmt.Fprintln(w, line)
		}
	}
	out.hint = strings.Join(hints, "\n")
	return out
}

// signalReady tells the parent that the session started. Standard output
// and error go to the null device first: the parent stops reading them
// once it knows, and it must have seen all of them by then.
func signalReady(w *os.File, d detached) {
	defer w.Close()
	redirectStdio()
	b, _ := json.Marshal(d)
	_, _ = w.Write(b)
}

// childExitCode is the exit status in a Wait error.
func childExitCode(err error) int {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee) && ee.ExitCode() >= 0:
		return ee.ExitCode()
	}
	return exitFailure
}
