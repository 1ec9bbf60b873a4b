// Command modelserver runs the scripted model server of package
// testdata/modelserver as a process, so that the real agent CLIs (Claude Code,
// opencode, Codex, Gemini CLI) can be pointed at it in end-to-end runs
// (testdata/e2e/run.sh).
//
// It listens on loopback (a free port by default), writes its base URL to
// -addr-file once it accepts connections, logs one JSON line per request to
// -log with credentials removed, and stops by itself after -exit-after so
// that a crashed harness never leaves it running.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/rgit-dev/rgit/testdata/modelserver"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// options are the parsed command line.
type options struct {
	addr      string
	addrFile  string
	logFile   string
	exitAfter time.Duration
	script    modelserver.Script
	webFetch  bool
	caFile    string
}

// listFlag collects a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

func parse(args []string, stderr io.Writer) (options, error) {
	var o options
	var subtopics listFlag
	fs := flag.NewFlagSet("modelserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.addr, "addr", "127.0.0.1:0", "listen address; port 0 picks a free port")
	fs.StringVar(&o.addrFile, "addr-file", "", "write the base URL (http://host:port) to this file once listening")
	fs.StringVar(&o.logFile, "log", "", "append one JSON line per request to this file (credentials removed)")
	fs.DurationVar(&o.exitAfter, "exit-after", 30*time.Minute, "stop by itself after this long (0: never)")
	fs.StringVar(&o.script.Verdict, "verdict", "accept", "review verdict: accept or reject")
	fs.StringVar(&o.script.Model, "model", "", "model name reported in answers (default: echo the request's)")
	fs.Var(&subtopics, "subtopic", `"Name: description" proposed by research outputs (repeatable)`)
	fs.StringVar(&o.caFile, "ca-file", "", "with -webfetch: write the PEM certificate of the https page server here (for NODE_EXTRA_CA_CERTS)")
	fs.BoolVar(&o.webFetch, "webfetch", false, "research calls fetch the server's own page "+modelserver.PagePath+" with the client's web fetch tool and cite it, and cite "+modelserver.UnfetchedPath+" unfetched")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if o.script.Verdict != "accept" && o.script.Verdict != "reject" {
		return o, fmt.Errorf("-verdict must be accept or reject, got %q", o.script.Verdict)
	}
	o.script.Subtopics = subtopics
	return o, nil
}

// run is main without os.Exit: it serves until ctx is done or -exit-after
// passes, and returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, err := parse(args, stderr)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(stderr, "modelserver: %v\n", err)
		}
		return 2
	}
	if o.exitAfter > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.exitAfter)
		defer cancel()
	}
	l, err := net.Listen("tcp", o.addr)
	if err != nil {
		fmt.Fprintf(stderr, "modelserver: listen: %v\n", err)
		return 1
	}
	var logw io.Writer = io.Discard
	if o.logFile != "" {
		f, err := os.OpenFile(o.logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			l.Close()
			fmt.Fprintf(stderr, "modelserver: open log: %v\n", err)
			return 1
		}
		defer f.Close()
		logw = f
	}
	srv := &http.Server{Handler: newLogged(modelserver.New(&o.script), logw), ReadHeaderTimeout: 10 * time.Second}
	base := "http://" + l.Addr().String()
	if o.webFetch {
		// The page is served over TLS too (pages.go); PageBase is set
		// before Serve, so no request reads it earlier.
		pages, psrv, err := servePages(srv.Handler, o.caFile)
		if err != nil {
			l.Close()
			fmt.Fprintf(stderr, "modelserver: %v\n", err)
			return 1
		}
		defer psrv.Close()
		o.script.PageBase = pages
	}
	if o.addrFile != "" {
		if err := writeAtomic(o.addrFile, base+"\n"); err != nil {
			l.Close()
			fmt.Fprintf(stderr, "modelserver: write addr file: %v\n", err)
			return 1
		}
	}
	fmt.Fprintf(stdout, "modelserver: listening on %s\n", base)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	select {
	case err := <-done:
		fmt.Fprintf(stderr, "modelserver: serve: %v\n", err)
		return 1
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = srv.Shutdown(shut)
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		fmt.Fprintf(stdout, "modelserver: stopping after %s\n", o.exitAfter)
	}
	return 0
}

// writeAtomic writes data to path through a rename, so a reader polling for
// the file never sees it half written.
func writeAtomic(path, data string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".addr-*")
	if err != nil {
		return err
	}
	if _, err := tmp.WriteString(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}
