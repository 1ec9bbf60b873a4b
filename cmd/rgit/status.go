package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rgit-dev/rgit/phases"
)

func statusCommand(io *IO) *cli.Command {
	return &cli.Command{
		Name:  "status",
		Usage: "show a session: plan tree with statuses, iteration, phase, lock owner, last commits, usage",
		Flags: []cli.Flag{nameFlag(), jsonFlag(),
			&cli.BoolFlag{Name: "follow", Aliases: []string{"f"}, Usage: "stream the session's progress log until its run ends (rgit watch)"}},
		Action: onSession(io, func(c *cli.Context, in phases.Inspector, name string) error {
			if c.Bool("follow") {
				return follow(c.Context, io, in, name)
			}
			info, err := in.Status(name)
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return writeJSON(io.Out, map[string]any{"session": toJSONSession(info)})
			}
			printStatus(io, info, in.Clock.Now())
			return nil
		}),
	}
}

// printStatus prints a session as of now.
func printStatus(io *IO, s phases.SessionInfo, now time.Time) {
	w := io.Out
	fmt.Fprintf(w, "session   %s (%s)\ntopic     %s\nstage     %s, last phase %s\n", safe(s.Name), safe(s.Branch), safe(s.Topic), safe(string(s.Stage)), safe(string(s.Phase)))
	if len(s.Members) == 0 { // a council's progress is its members', below
		fmt.Fprintf(w, "progress  %d of %d topics complete, iteration %d of %d\n", s.Counts.Complete, s.Counts.Total, s.Iteration, s.MaxIter)
	}
	if s.Lock != nil {
		fmt.Fprintf(w, "lock      pid %d on %s, started %s ago\n", s.Lock.PID, safe(s.Lock.Host), now.Sub(s.Lock.Started).Round(time.Second))
	} else {
		fmt.Fprintf(w, "lock      none (not running)\n")
	}
	if s.LastRun != nil {
		fmt.Fprintf(w, "last run  %s\n", runLine(*s.LastRun, now))
	}
	if len(s.Exhausted) > 0 {
		fmt.Fprintf(w, "exhausted %s\n", safeJoin(s.Exhausted, ", "))
	}
	if s.Citations != nil {
		fmt.Fprintf(w, "sources   %s\n", s.Citations)
	}
	if s.Tree != "" {
		fmt.Fprintf(w, "\n%s", safeText(s.Tree))
		if !strings.HasSuffix(s.Tree, "\n") {
			fmt.Fprintln(w)
		}
	}
	if len(s.Usage) > 0 {
		fmt.Fprintln(w, "\nusage")
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, b := range slices.Sorted(maps.Keys(s.Usage)) {
			u := s.Usage[b]
			fmt.Fprintf(tw, "  %s\t%d calls\t%d in\t%d out\t%s\t%s\n", safe(b), u.Calls, u.InputTokens, u.OutputTokens, costText(u.CostUSD), time.Duration(u.Seconds*float64(time.Second)).Round(time.Millisecond))
		}
		tw.Flush()
		fmt.Fprintf(w, "  total: %s\n", spendText(phases.SpendOf(s.Usage), s.Budget))
	}
	if len(s.Members) > 0 {
		fmt.Fprintln(w, "\ncouncil")
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, m := range s.Members {
			state := string(m.Phase)
			switch {
			case m.Failed != "":
				state = "failed"
			case state == "":
				state = "not started"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\titeration %d\t%s\t%d calls\t%d tokens\t%s\n", m.Member, m.Spec, state, m.Iteration, short(m.Head),
				m.Usage.Calls, m.Usage.InputTokens+m.Usage.OutputTokens, costText(m.Usage.CostUSD))
		}
		tw.Flush()
	}
	if len(s.Recent) > 0 {
		fmt.Fprintln(w, "\nrecent commits")
		for _, r := range s.Recent {
			fmt.Fprintf(w, "  %s %s\n", short(r.Hash), safe(r.Summary))
		}
	}
}
