package main

import (
	"bufio"
	"os/exec"
	"strings"
	"sync"
)

// watched is a running rgit whose standard error is read line by line as
// it is written, so a test can act at a given moment of the run (after
// the k-th line, when a phase starts) without sleeping.
type watched struct {
	cmd    *exec.Cmd
	lines  chan string
	mu     sync.Mutex
	stderr strings.Builder
	stdout strings.Builder
}

// watch starts cmd with its standard error watched and its standard
// output collected.
func watch(cmd *exec.Cmd) (*watched, error) {
	w := &watched{cmd: cmd, lines: make(chan string)}
	cmd.Stdout = &lockedWriter{w: &w.stdout, mu: &w.mu}
	pipe, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			w.mu.Lock()
			w.stderr.WriteString(sc.Text() + "\n")
			w.mu.Unlock()
			w.lines <- sc.Text()
		}
		close(w.lines)
	}()
	return w, nil
}

// until reads lines until one satisfies match; false when the process
// closed its standard error first.
func (w *watched) until(match func(line string) bool) bool {
	for line := range w.lines {
		if match(line) {
			return true
		}
	}
	return false
}

// wait reads the rest of standard error, waits for the process and
// returns both outputs.
func (w *watched) wait() (stdout, stderr string, err error) {
	for range w.lines {
	}
	err = w.cmd.Wait()
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.stdout.String(), w.stderr.String(), err
}

// lockedWriter lets the process write standard output while the test
// reads the collected text.
type lockedWriter struct {
	w  *strings.Builder
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
