package main

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/rgit-dev/rgit/phases"
)

func verifyCommand(io *IO) *cli.Command {
	return &cli.Command{
		Name:  "verify",
		Usage: "re-audit a finished or fetched session from its branch: citations, quotations, topics, banner; exit 1 when UNVERIFIED",
		Description: "Every citation of the report must point at a source a research pass recorded (or, for the local\n" +
			"researcher's `path:start-end`, at the corpus file's lines, quotation included), every quotation must\n" +
			"be found in its source, every topic of the plan must be complete or listed as exhausted, and the\n" +
			"banner and iteration count must agree with state.json and the commit trailers.\n\n" +
			"Exit status: 0 VERIFIED, 1 UNVERIFIED, 2 bad input.",
		Flags: []cli.Flag{nameFlag(), &cli.BoolFlag{Name: "json", Usage: "print JSON"}},
		Action: onSession(io, func(c *cli.Context, in phases.Inspector, name string) error {
			v, err := in.Verify(name)
			if err != nil {
				return err
			}
			if c.Bool("json") {
				enc := json.NewEncoder(io.Out)
				enc.SetIndent("", "  ")
				if err := enc.Encode(v); err != nil {
					return err
				}
			} else {
				printVerification(io, v)
			}
			if !v.Verified {
				return &unverifiedError{name: v.Name, problems: len(v.Problems)}
			}
			return nil
		}),
	}
}

// printVerification prints the scorecard, the problems and the verdict.
func printVerification(io *IO, v phases.Verification) {
	fmt.Fprintf(io.Out, "session %s (%s at %s)\n\n", v.Name, v.Branch, short(v.Head))
	tw := tabwriter.NewWriter(io.Out, 0, 4, 2, ' ', 0)
	for _, c := range v.Checks {
		mark := "ok"
		if !c.OK() {
			mark = "FAIL"
		}
		fmt.Fprintf(tw, "%s\t%d/%d\t%s\t%s\n", c.Name, c.Passed, c.Total, c.What, mark)
	}
	_ = tw.Flush()
	if len(v.Problems) > 0 {
		fmt.Fprintln(io.Out)
		for _, p := range v.Problems {
			fmt.Fprintf(io.Out, "- %s\n", p)
		}
	}
	if v.Verified {
		fmt.Fprintln(io.Out, "\nVERIFIED")
	} else {
		fmt.Fprintln(io.Out, "\nUNVERIFIED")
	}
}

// unverifiedError makes an UNVERIFIED session a failure (exit 1).
type unverifiedError struct {
	name     string
	problems int
}

func (e *unverifiedError) Error() string {
	if e.problems == 1 {
		return fmt.Sprintf("session %s is UNVERIFIED: 1 problem", e.name)
	}
	return fmt.Sprintf("session %s is UNVERIFIED: %d problems", e.name, e.problems)
}

func (e *unverifiedError) Hint() string {
	return "the problems are listed above; 'rgit log --name " + e.name + "' shows which commit changed what"
}
