package main

import (
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/urfave/cli/v2"

	"github.com/rgit-dev/rgit/phases"
)

// logWidth is what `rgit log` fits in without --wide.
const logWidth = 100

func jsonFlag() cli.Flag {
	return &cli.BoolFlag{Name: "json", Usage: "print JSON (schema: docs/json.md)"}
}

func logCommand(io *IO) *cli.Command {
	return &cli.Command{
		Name:  "log",
		Usage: "one row per phase of a session, read from the commit trailers",
		Flags: []cli.Flag{nameFlag(), jsonFlag(), whyFlag,
			&cli.BoolFlag{Name: "wide", Usage: "every column in full: date, whole topic and agent, exact duration"}},
		Action: onSession(io, func(c *cli.Context, in phases.Inspector, name string) error {
			rows, err := in.Log(name)
			if c.Bool(whyFlag.Name) && err == nil {
				return printWhy(io, rows)
			}
			if err != nil {
				return err
			}
			if c.Bool("json") {
				commits := make([]jsonCommit, 0, len(rows))
				for i := len(rows) - 1; i >= 0; i-- {
					commits = append(commits, toJSONCommit(rows[i]))
				}
				return writeJSON(io.Out, map[string]any{"session": name, "commits": commits})
			}
			if c.Bool("wide") {
				return printWideLog(io, rows, name)
			}
			printLog(io, rows, name)
			return nil
		}),
	}
}

// printWideLog prints every column in full, oldest phase first.
func printWideLog(io *IO, rows []phases.PhaseRow, name string) error {
	tw := tabwriter.NewWriter(io.Out, 0, 4, 2, ' ', 0)
	forked := forkedLog(rows, name)
	fmt.Fprint(tw, "COMMIT\tWHEN\tPHASE\tITER\tTOPIC\tVERDICT\tAGENT\tDURATION\tTOKENS\tCOST")
	fmt.Fprintln(tw, forkColumn(forked, "\tSESSION"))
	for i := len(rows) - 1; i >= 0; i-- {
		r := rows[i]
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s", short(r.Hash), r.When.Local().Format("2006-01-02 15:04:05"), r.Phase, dash(r.Iteration),
			dash(r.Topic), dash(string(r.Verdict)), dash(r.Model), dash(r.Duration), dash(r.Tokens), dash(r.Cost))
		fmt.Fprintln(tw, forkColumn(forked, "\t"+sessionMark(r, name)))
	}
	return tw.Flush()
}

// printLog prints the log in at most logWidth columns: the date goes
// (--wide has it), durations round to seconds, the agent shows its model,
// and the topic gets the width left, cut with "…".
func printLog(io *IO, rows []phases.PhaseRow, name string) {
	header := []string{"COMMIT", "PHASE", "ITER", "TOPIC", "VERDICT", "AGENT", "TIME", "TOKENS", "COST"}
	forked := forkedLog(rows, name)
	if forked {
		header = append(header, "SESSION")
	}
	const topicCol = 3
	table := [][]string{header}
	for i := len(rows) - 1; i >= 0; i-- {
		r := rows[i]
		row := []string{short(r.Hash), string(r.Phase), dash(r.Iteration), dash(r.Topic), dash(string(r.Verdict)),
			dash(compactAgent(r.Model)), dash(compactDuration(r.Duration)), dash(compactTokens(r.Tokens)), dash(compactCost(r.Cost))}
		if forked {
			row = append(row, sessionMark(r, name))
		}
		table = append(table, row)
	}
	widths := make([]int, len(header))
	for _, row := range table {
		for i, cell := range row {
			widths[i] = max(widths[i], utf8.RuneCountInString(cell))
		}
	}
	others := 2 * (len(header) - 1)
	for i, w := range widths {
		if i != topicCol {
			others += w
		}
	}
	widths[topicCol] = max(min(widths[topicCol], logWidth-others), len(header[topicCol]))
	for _, row := range table {
		var b strings.Builder
		for i, cell := range row {
			cell = cut(cell, widths[i])
			b.WriteString(cell)
			if i < len(row)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(cell)+2))
			}
		}
		fmt.Fprintln(io.Out, b.String())
	}
}

// cut shortens s to n runes, ending in "…" when it was longer.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:max(n-1, 0)]) + "…"
}

// compactAgent is the model of a backend:model spec, or the spec.
func compactAgent(spec string) string {
	if _, model, ok := strings.Cut(spec, ":"); ok && model != "" {
		return model
	}
	return spec
}

func compactDuration(s string) string {
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return s
	}
	if d < time.Second {
		return "<1s"
	}
	return d.Round(time.Second).String()
}

func compactTokens(s string) string {
	n, err := strconv.ParseInt(s, 10, 64)
	switch {
	case err != nil || n < 100000:
		return s
	case n < 10000000:
		return fmt.Sprintf("%dk", n/1000)
	}
	return fmt.Sprintf("%dM", n/1000000)
}

func compactCost(s string) string {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s
	}
	return fmt.Sprintf("%.2f", f)
}

func listCommand(io *IO) *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "all research sessions in this repository with their state",
		Flags: []cli.Flag{jsonFlag()},
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
			if c.Bool("json") {
				sessions := make([]jsonSession, 0, len(list))
				for _, s := range list {
					sessions = append(sessions, toJSONSession(s))
				}
				return writeJSON(io.Out, map[string]any{"sessions": sessions})
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
