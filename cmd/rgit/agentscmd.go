package main

import (
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/rgit-dev/rgit/agents/registry"
)

func agentsCommand(io *IO) *cli.Command {
	return &cli.Command{
		Name:  "agents",
		Usage: "list every agent backend: found or not, version, and what is missing",
		Flags: []cli.Flag{jsonFlag()},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("run 'rgit agents' with no arguments", "unexpected argument %q", c.Args().First())
			}
			opts := registry.Options{Getenv: os.Getenv}
			if c.Bool("json") {
				var list []jsonAgent
				for _, s := range registry.Detect(c.Context, opts) {
					list = append(list, toJSONAgent(s))
				}
				research, why := registry.Auto(opts)
				review, _ := registry.AutoReview(opts)
				return writeJSON(io.Out, map[string]any{"agents": list, "auto": jsonAuto{Research: research, Review: review, Reason: why}})
			}
			tw := tabwriter.NewWriter(io.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "BACKEND\tSTATUS\tVERSION\tPATH\tCAN\tMISSING")
			for _, s := range registry.Detect(c.Context, opts) {
				status := "missing"
				if s.Found {
					status = "found"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", s.Backend, status, dash(s.Version), dash(s.Path), dash(strings.Join(s.Can, ",")), dash(s.Missing))
			}
			spec, why := registry.Auto(opts)
			if err := tw.Flush(); err != nil {
				return err
			}
			if spec == "" {
				fmt.Fprintf(io.Out, "\nauto finds no agent: %s\n", why)
				return nil
			}
			fmt.Fprintf(io.Out, "\nauto chooses %s: %s\n", spec, why)
			return nil
		},
	}
}
