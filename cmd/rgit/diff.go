package main

import (
	"encoding/json"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/rgit-dev/rgit/phases/report"
)

func diffCommand(io *IO) *cli.Command {
	return &cli.Command{
		Name:      "diff",
		Usage:     "compare two sessions: topics, sources cited, report sections, usage and time",
		ArgsUsage: "A[@REV] B[@REV]",
		Description: "A and B are session names, each at its head or at a revision of its own history\n" +
			"(a hash or prefix, HEAD~N). A session fetched from another clone is read from its\n" +
			"remote branch (a local branch is created for it, as a resume does).\n\n" +
			"Exit status: 0 compared (even when they differ), 1 failure, 2 bad input.",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print the diff as JSON"}},
		Action: func(c *cli.Context) error {
			if c.NArg() != 2 {
				return usagef("rgit diff A B, or A@REV B@REV", "diff compares two sessions, got %d arguments", c.NArg())
			}
			in, err := inspector(io)
			if err != nil {
				return err
			}
			var sides [2]*report.Session
			for i, arg := range c.Args().Slice() {
				name, rev, _ := strings.Cut(arg, "@")
				v, err := in.ReportSession(name, rev)
				if err != nil {
					return err
				}
				sides[i] = v.Session
			}
			d := report.Compare(sides[0], sides[1])
			if c.Bool("json") {
				enc := json.NewEncoder(io.Out)
				enc.SetIndent("", "  ")
				enc.SetEscapeHTML(false)
				return enc.Encode(d)
			}
			return d.WriteText(io.Out)
		},
	}
}
