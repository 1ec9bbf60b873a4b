package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/rgit-dev/rgit/phases"
	"github.com/rgit-dev/rgit/phases/layout"
	"github.com/rgit-dev/rgit/phases/report"
)

func exportCommand(io *IO) *cli.Command {
	return &cli.Command{
		Name:  "export",
		Usage: "write a session's report and metadata as Markdown, one HTML page or versioned JSON",
		Description: "md: the report for git hosts (citations linked, the topic tree a mermaid block).\n" +
			"html: the page 'rgit show --html' writes. json: metadata, plan tree with statuses, sources,\n" +
			fmt.Sprintf("citations, usage per phase and the report, schema_version %d (print the JSON Schema\n", report.SchemaVersion) +
			"with --schema). Standard output by default; -o writes the file atomically.\n\n" +
			"Exit status: 0 written, 1 failure, 2 bad input (nothing written).",
		Flags: []cli.Flag{nameFlag(),
			&cli.StringFlag{Name: "format", Value: "md", Usage: "md, html or json"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to this file instead of standard output"},
			&cli.StringFlag{Name: "at", Usage: "export the session as of this revision of its history"},
			&cli.BoolFlag{Name: "schema", Usage: "print the JSON Schema of --format json and exit"},
		},
		Action: func(c *cli.Context) error {
			if c.Bool("schema") {
				if c.NArg() > 0 {
					return usagef("run 'rgit export --schema' alone", "unexpected argument %q", c.Args().First())
				}
				_, err := io.Out.Write(report.Schema())
				return err
			}
			format, out := c.String("format"), c.String("output")
			if format != "md" && format != "html" && format != "json" {
				return usagef("pass --format md, html or json", "unknown format %q", format)
			}
			if err := checkOutput(out); err != nil {
				return err
			}
			return onSession(io, func(c *cli.Context, in phases.Inspector, name string) error {
				v, err := in.ReportSession(name, c.String("at"))
				if err != nil {
					return err
				}
				var b bytes.Buffer
				switch format {
				case "md":
					// Links are relative to where the Markdown is read: the
					// file written, or the report's place in the tree.
					dir := filepath.Join(v.Root, filepath.FromSlash(layout.New("", name).ReportsTree()))
					if out != "" {
						dir = filepath.Dir(out)
					}
					v.Session.FileLink = v.FileLinks(dir, true)
					err = report.RenderMarkdown(&b, v.Session)
				case "html":
					v.Session.FileLink = v.FileLinks(outputDir(out), false)
					err = report.RenderHTML(&b, v.Session)
				case "json":
					err = report.RenderJSON(&b, v.Session)
				}
				if err != nil {
					return err
				}
				if out == "" {
					_, err = io.Out.Write(b.Bytes())
					return err
				}
				return writeAtomic(out, b.Bytes())
			})(c)
		},
	}
}

// outputDir is where a file written to out is read from: its directory,
// or the working directory for standard output.
func outputDir(out string) string {
	if out == "" {
		return "."
	}
	return filepath.Dir(out)
}

// checkOutput refuses an output file whose directory is missing or that is
// a directory, before anything is read or written.
func checkOutput(out string) error {
	if out == "" {
		return nil
	}
	if fi, err := os.Stat(out); err == nil && fi.IsDir() {
		return usagef("name a file, not a directory", "%s is a directory", out)
	}
	if fi, err := os.Stat(filepath.Dir(out)); err != nil || !fi.IsDir() {
		return usagef("create the directory first, or write elsewhere", "no directory %s for %s", filepath.Dir(out), out)
	}
	return nil
}

// writeAtomic writes data to path through a temporary file in the same
// directory and a rename, so a reader never sees half a file and a failed
// write leaves the old one.
func writeAtomic(path string, data []byte) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			os.Remove(f.Name())
		}
	}()
	_, werr := f.Write(data)
	if serr := f.Sync(); werr == nil {
		werr = serr
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return fmt.Errorf("write %s: %w", path, werr)
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
