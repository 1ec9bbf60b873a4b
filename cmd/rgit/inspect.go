package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rgit-dev/rgit/phases"
)

func nameFlag() cli.Flag {
	return &cli.StringFlag{Name: "name", Usage: "session name (default: the only session, if there is one)", EnvVars: []string{"RGIT_NAME"}}
}

// sessionName is --name, or the repository's only session.
func sessionName(c *cli.Context, wd string) (string, error) {
	if c.NArg() > 0 {
		return "", usagef("pass the session with --name", "unexpected argument %q", c.Args().First())
	}
	if n := c.String("name"); n != "" {
		return n, nil
	}
	list, err := phases.List(wd)
	if err != nil {
		return "", err
	}
	if len(list) == 1 {
		return list[0].Name, nil
	}
	return "", usagef("run 'rgit list' and pass one with --name", "%d sessions here; which one?", len(list))
}

// onSession wraps an action that needs the working directory and the
// session it names.
func onSession(fn func(c *cli.Context, wd, name string) error) cli.ActionFunc {
	return func(c *cli.Context) error {
		wd, err := os.Getwd()
		if err != nil {
			return fmt.Errorf("find working directory: %w", err)
		}
		name, err := sessionName(c, wd)
		if err != nil {
			return err
		}
		return fn(c, wd, name)
	}
}

func statusCommand(io *IO) *cli.Command {
	return &cli.Command{
		Name:  "status",
		Usage: "show a session: plan tree with statuses, iteration, phase, lock owner, last commits, usage",
		Flags: []cli.Flag{nameFlag(), &cli.BoolFlag{Name: "json", Usage: "print JSON"}},
		Action: onSession(func(c *cli.Context, wd, name string) error {
			info, err := phases.Status(wd, name)
			if err != nil {
				return err
			}
			if c.Bool("json") {
				enc := json.NewEncoder(io.Out)
				enc.SetIndent("", "  ")
				return enc.Encode(info)
			}
			printStatus(io, info)
			return nil
		}),
	}
}

func printStatus(io *IO, s phases.SessionInfo) {
	w := io.Out
	fmt.Fprintf(w, "session   %s (%s)\ntopic     %s\nstage     %s, last phase %s\n", s.Name, s.Branch, s.Topic, s.Stage, s.Phase)
	fmt.Fprintf(w, "progress  %d of %d topics complete, iteration %d of %d\n", s.Counts.Complete, s.Counts.Total, s.Iteration, s.MaxIter)
	if s.Lock != nil {
		fmt.Fprintf(w, "lock      pid %d on %s, started %s ago\n", s.Lock.PID, s.Lock.Host, time.Since(s.Lock.Started).Round(time.Second))
	} else {
		fmt.Fprintf(w, "lock      none (not running)\n")
	}
	if len(s.Exhausted) > 0 {
		fmt.Fprintf(w, "exhausted %s\n", strings.Join(s.Exhausted, ", "))
	}
	if s.Tree != "" {
		fmt.Fprintf(w, "\n%s", s.Tree)
		if !strings.HasSuffix(s.Tree, "\n") {
			fmt.Fprintln(w)
		}
	}
	if len(s.Usage) > 0 {
		fmt.Fprintln(w, "\nusage")
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, b := range slices.Sorted(maps.Keys(s.Usage)) {
			u := s.Usage[b]
			fmt.Fprintf(tw, "  %s\t%d calls\t%d in\t%d out\t$%.4f\t%s\n", b, u.Calls, u.InputTokens, u.OutputTokens, u.CostUSD, time.Duration(u.Seconds*float64(time.Second)).Round(time.Millisecond))
		}
		tw.Flush()
	}
	if len(s.Recent) > 0 {
		fmt.Fprintln(w, "\nrecent commits")
		for _, r := range s.Recent {
			fmt.Fprintf(w, "  %s %s\n", short(r.Hash), r.Summary)
		}
	}
}

func short(h string) string {
	if len(h) > 8 {
		return h[:8]
	}
	return h
}

func logCommand(io *IO) *cli.Command {
	return &cli.Command{
		Name:  "log",
		Usage: "one row per phase of a session, read from the commit trailers",
		Flags: []cli.Flag{nameFlag()},
		Action: onSession(func(c *cli.Context, wd, name string) error {
			rows, err := phases.Log(wd, name)
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(io.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "COMMIT\tWHEN\tPHASE\tITER\tTOPIC\tVERDICT\tAGENT\tDURATION\tTOKENS\tCOST")
			for i := len(rows) - 1; i >= 0; i-- {
				r := rows[i]
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", short(r.Hash), r.When.Local().Format("2006-01-02 15:04:05"), r.Phase, dash(r.Iteration),
					dash(r.Topic), dash(r.Verdict), dash(r.Model), dash(r.Duration), dash(r.Tokens), dash(r.Cost))
			}
			return tw.Flush()
		}),
	}
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func listCommand(io *IO) *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "all research sessions in this repository with their state",
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("run 'rgit list' with no arguments", "unexpected argument %q", c.Args().First())
			}
			wd, _ := os.Getwd()
			list, err := phases.List(wd)
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
				fmt.Fprintf(tw, "%s\t%s\t%d/%d\t%d/%d\t%s\t%s\n", s.Name, s.Stage, s.Counts.Complete, s.Counts.Total, s.Iteration, s.MaxIter, running, s.Topic)
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
		Action: onSession(func(c *cli.Context, wd, name string) error {
			info, err := phases.Cancel(wd, name)
			if err != nil {
				return err
			}
			fmt.Fprintf(io.Out, "asked pid %d on %s to stop session %s\n", info.PID, info.Host, name)
			return nil
		}),
	}
}
