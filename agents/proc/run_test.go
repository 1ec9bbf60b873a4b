package proc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary doubles as the subprocess: with PROC_HELPER set it plays
// the role named there instead of running tests.
func TestMain(m *testing.M) {
	if role := os.Getenv("PROC_HELPER"); role != "" {
		helper(role)
		return
	}
	os.Exit(m.Run())
}

func helper(role string) {
	switch role {
	case "lines":
		fmt.Print("one\ntwo\r\n\nthree")
		fmt.Fprint(os.Stderr, "warning\nfatal: it broke\n")
		os.Exit(3)
	case "answer":
		// A CLI whose answer quotes the key it was given.
		fmt.Println("the key is " + os.Getenv("RGIT_PROC_TEST_TOKEN"))
	case "stdin":
		b := make([]byte, 100)
		n, _ := os.Stdin.Read(b)
		fmt.Printf("got %s", b[:n])
	case "big":
		os.Stdout.Write(bytes.Repeat([]byte("x"), 1000))
		os.Stdout.Write([]byte("\nshort\n"))
		os.Stderr.Write(bytes.Repeat([]byte("e"), 1000))
		os.Stderr.Write([]byte("END"))
	case "sigint":
		// Ends cleanly on SIGINT, as claude does: the first signal must be SIGINT.
		c := make(chan os.Signal, 1)
		signal.Notify(c, syscall.SIGINT)
		fmt.Println("ready")
		<-c
		fmt.Println("interrupted")
		os.Exit(130)
	case "hang", "daemon":
		signal.Ignore(syscall.SIGINT, syscall.SIGTERM)
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), "PROC_HELPER=grandchild")
		cmd.Stdout = os.Stdout // the grandchild holds the pipe open
		if err := cmd.Start(); err != nil {
			os.Exit(9)
		}
		pidfile := os.Getenv("PROC_PIDFILE")
		os.WriteFile(pidfile+".tmp", []byte(strconv.Itoa(cmd.Process.Pid)), 0o644)
		os.Rename(pidfile+".tmp", pidfile)
		fmt.Println("started")
		if role == "daemon" {
			os.Exit(0)
		}
		blockForever()
	case "grandchild":
		signal.Ignore(syscall.SIGINT, syscall.SIGTERM)
		blockForever()
	}
}

// blockForever parks the helper until it is killed, as a hung agent does:
// a read of a pipe nobody writes (select{} alone is a runtime deadlock).
func blockForever() {
	r, w, err := os.Pipe()
	if err != nil {
		os.Exit(8)
	}
	r.Read(make([]byte, 1))
	runtime.KeepAlive(w) // an open write end keeps the read from seeing EOF
	os.Exit(8)
}

func helperCmd(t *testing.T, role string, extra ...string) Cmd {
	t.Helper()
	return Cmd{Path: os.Args[0], Env: append(os.Environ(), append([]string{"PROC_HELPER=" + role}, extra...)...),
		Dir: t.TempDir(), Grace: 50 * time.Millisecond}
}

func TestRunCapturesOutput(t *testing.T) {
	c := helperCmd(t, "lines")
	var lines []string
	c.OnLine = func(l []byte) { lines = append(lines, string(l)) }
	res, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 3 {
		t.Errorf("exit = %d, want 3", res.ExitCode)
	}
	if got, want := strings.Join(lines, "|"), "one|two||three"; got != want {
		t.Errorf("lines = %q, want %q", got, want)
	}
	if string(res.Stdout) != "one\ntwo\r\n\nthree" || string(res.Stderr) != "warning\nfatal: it broke\n" {
		t.Errorf("stdout %q stderr %q", res.Stdout, res.Stderr)
	}
	if got := LastLines(res.Stderr, 1); got != "fatal: it broke" {
		t.Errorf("LastLines = %q", got)
	}
}

func TestRunStdinAndCaps(t *testing.T) {
	c := helperCmd(t, "stdin")
	c.Stdin = strings.NewReader("prompt")
	res, err := Run(context.Background(), c)
	if err != nil || string(res.Stdout) != "got prompt" {
		t.Fatalf("stdin: %q, %v", res.Stdout, err)
	}
	c = helperCmd(t, "big")
	c.MaxStdout, c.MaxStderr = 100, 10
	var lines []string
	c.OnLine = func(l []byte) { lines = append(lines, string(l)) }
	res, err = Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Stdout) != 100 || !res.StdoutTruncated {
		t.Errorf("stdout kept %d bytes, truncated=%v", len(res.Stdout), res.StdoutTruncated)
	}
	if !strings.HasSuffix(string(res.Stderr), "END") || len(res.Stderr) != 10 || !res.StderrTruncated {
		t.Errorf("stderr tail = %q truncated=%v", res.Stderr, res.StderrTruncated)
	}
	if len(lines) != 2 || lines[1] != "short" || len(lines[0]) != 1000 {
		t.Errorf("lines not delivered whole despite the cap: %d lines", len(lines))
	}
}

func TestRunNotFound(t *testing.T) {
	_, err := Run(context.Background(), Cmd{Path: filepath.Join(t.TempDir(), "nope")})
	if err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("err = %v, want not exist", err)
	}
}
