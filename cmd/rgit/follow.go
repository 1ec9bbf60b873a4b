package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/rgit-dev/rgit/gitstore"
	"github.com/rgit-dev/rgit/phases"
	"github.com/rgit-dev/rgit/phases/layout"
)

func watchCommand(stdio *IO) *cli.Command {
	return &cli.Command{
		Name:  "watch",
		Usage: "stream a session's progress until its run ends (same as rgit status --follow)",
		Description: "Prints the session's progress log, then every new line, until the run ends.\n\n" +
			"Exit status: the run's, as for rgit wait.",
		Flags: []cli.Flag{nameFlag()},
		Action: onSession(stdio, func(c *cli.Context, in phases.Inspector, name string) error {
			return follow(c.Context, stdio, in, name)
		}),
	}
}

// follow prints the session's progress log from its start, then each line
// as it is appended, until the run ends (the log's last line is then the
// run's end), and exits as rgit wait does.
func follow(ctx context.Context, stdio *IO, in phases.Inspector, name string) error {
	if err := phases.ValidateName(name); err != nil {
		return err
	}
	s, err := gitstore.Open(in.Dir)
	if err != nil {
		return fmt.Errorf("open repository: %w", err)
	}
	t := &tail{path: layout.New(s.Root(), name).ProgressLog(), w: stdio.Out}
	s.Close()
	o, err := waitRun(ctx, in, name, 0, t.pump)
	t.pump() // what the run wrote before its end
	if err != nil {
		return err
	}
	return endOf(stdio, name, o, false)
}

// tail copies the whole lines appended to a file since the last pump.
type tail struct {
	path string
	w    io.Writer
	off  int64
}

func (t *tail) pump() {
	f, err := os.Open(t.path)
	if err != nil {
		return // not written yet
	}
	defer f.Close()
	if _, err := f.Seek(t.off, io.SeekStart); err != nil {
		return
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return
	}
	// A line being written is printed once it is whole.
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		t.w.Write(b[:i+1])
		t.off += int64(i + 1)
	}
}
