package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/rgit-dev/rgit/phases"
)

func logCommand(io *IO) *cli.Command {
	return &cli.Command{
		Name:  "log",
		Usage: "one row per phase of a session, read from the commit trailers",
		Flags: []cli.Flag{nameFlag()},
		Action: onSession(io, func(c *cli.Context, in phases.Inspector, name string) error {
			rows, err := in.Log(name)
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(io.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "COMMIT\tWHEN\tPHASE\tITER\tTOPIC\tVERDICT\tAGENT\tDURATION\tTOKENS\tCOST")
			for i := len(rows) - 1; i >= 0; i-- {
				r := rows[i]
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", short(r.Hash), r.When.Local().Format("2006-01-02 15:04:05"), dash(string(r.Phase)), dash(r.Iteration),
					dash(r.Topic), dash(string(r.Verdict)), dash(r.Model), dash(r.Duration), dash(r.Tokens), dash(r.Cost))
			}
			return tw.Flush()
		}),
	}
}

func listCommand(io *IO) *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "all research sessions in this repository with their state",
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("run 'rgit list' with no arguments", "unexpected argument %q", c.Args().First())
			}
			in, err := inspector(io)
			if err != nil {
				return err
			}
			list, err := in.List()
			if err != nil {
				return err
			}
			if len(list) == 0 {
				fmt.Fprintln(io.Out, `no research sessions here; start one with: rgit research "topic"`)
				return nil
			}
			tw := tabwriter.NewWriter(io.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tSTAGE\tTOPICS\tITERATION\tRUNNING\tTOPIC")
			for _, s := range list {
				running := "no"
				if s.Lock != nil {
					running = fmt.Sprintf("pid %d", s.Lock.PID)
				}
				fmt.Fprintf(tw, "%s\t%s\t%d/%d\t%d/%d\t%s\t%s\n", safe(s.Name), safe(string(s.Stage)), s.Counts.Complete, s.Counts.Total, s.Iteration, s.MaxIter, running, safe(s.Topic))
			}
			return tw.Flush()
		},
	}
}

func cancelCommand(io *IO) *cli.Command {
	return &cli.Command{
		Name:  "cancel",
		Usage: "ask a running session to stop: it kills its agent, commits nothing half-done and exits",
		Flags: []cli.Flag{nameFlag()},
		Action: onSession(io, func(c *cli.Context, in phases.Inspector, name string) error {
			info, err := in.Cancel(name)
			if err != nil {
				return err
			}
			fmt.Fprintf(io.Out, "asked pid %d on %s to stop session %s\n", info.PID, safe(info.Host), safe(name))
			return nil
		}),
	}
}
