package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"

	"github.com/urfave/cli/v2"

	"github.com/rgit-dev/rgit/phases"
	"github.com/rgit-dev/rgit/phases/report"
)

func showCommand(io *IO) *cli.Command {
	return &cli.Command{
		Name:  "show",
		Usage: "show a session's report: laid out for the terminal, or as one self-contained HTML page",
		Description: "In a terminal: the question, the session's facts, the topic tree and the report, wrapped\n" +
			"to the terminal's width (COLUMNS overrides it), styled unless NO_COLOR is set or the\n" +
			"output is not a terminal. --html FILE writes the page (it loads nothing from the\n" +
			"network); --open writes it to a temporary file and opens it in the browser, or prints\n" +
			"its path when no opener (xdg-open, open, start) is installed.\n\n" +
			"Exit status: 0 shown, 1 failure, 2 bad input.",
		Flags: []cli.Flag{nameFlag(),
			&cli.StringFlag{Name: "html", Usage: "write the report as one HTML page to this file"},
			&cli.BoolFlag{Name: "open", Usage: "open the HTML page in the browser"},
			&cli.StringFlag{Name: "at", Usage: "show the session as of this revision of its history"},
		},
		Action: func(c *cli.Context) error {
			if err := checkOutput(c.String("html")); err != nil {
				return err
			}
			return onSession(io, func(c *cli.Context, in phases.Inspector, name string) error {
				v, err := in.ReportSession(name, c.String("at"))
				if err != nil {
					return err
				}
				if c.String("html") == "" && !c.Bool("open") {
					return showTerminal(io, v.Session)
				}
				return showHTML(io, v, c.String("html"), c.Bool("open"))
			})(c)
		},
	}
}

// showTerminal lays the session out for the terminal (or a pipe).
func showTerminal(io *IO, s *report.Session) error {
	tty := false
	if f, ok := io.Out.(*os.File); ok {
		tty = isTerminal(f)
	}
	opt := report.TermOptions{Width: termWidth(io, tty), Color: report.ColorEnabled(io.getenv, tty)}
	if len(s.Report) == 0 {
		s.Report = []byte("*No report yet: the session has not synthesized one.*\n")
	}
	return report.RenderShow(io.Out, s, opt)
}

// termWidth is COLUMNS when set, else the terminal's width, else 80.
func termWidth(io *IO, tty bool) int {
	if n, err := strconv.Atoi(io.getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	if f, ok := io.Out.(*os.File); ok && tty {
		if n := fileWidth(f); n > 0 {
			return n
		}
	}
	return 80
}

// showHTML writes the page to file (a temporary file when only --open is
// given) and opens it if asked.
func showHTML(io *IO, v *phases.ReportView, file string, open bool) error {
	if file == "" {
		f, err := os.CreateTemp("", "rgit-"+v.Session.Name+"-*.html")
		if err != nil {
			return fmt.Errorf("create page file: %w", err)
		}
		file = f.Name()
		f.Close()
	}
	v.Session.FileLink = v.FileLinks(filepath.Dir(file), false)
	var b bytes.Buffer
	if err := report.RenderHTML(&b, v.Session); err != nil {
		return err
	}
	if err := writeAtomic(file, b.Bytes()); err != nil {
		return err
	}
	if !open {
		fmt.Fprintf(io.Out, "wrote %s\n", file)
		return nil
	}
	if opener, args := findOpener(); opener != "" {
		cmd := exec.Command(opener, append(args, file)...)
		if err := cmd.Run(); err == nil {
			fmt.Fprintf(io.Out, "opened %s\n", file)
			return nil
		}
	}
	fmt.Fprintf(io.Out, "wrote %s (open it in a browser)\n", file)
	return nil
}

// findOpener is the installed program that opens a file in the user's
// browser, with its arguments before the file; "" when there is none.
func findOpener() (string, []string) {
	if runtime.GOOS == "windows" {
		if p, err := exec.LookPath("cmd"); err == nil {
			return p, []string{"/c", "start", ""}
		}
		return "", nil
	}
	for _, name := range []string{"xdg-open", "open"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", nil
}
