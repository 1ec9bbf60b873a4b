package main

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/xrash/smetrics"
)

// suggest is the candidate closest to name within a small edit distance,
// or "" when none is close: the "did you mean" of a mistyped word.
func suggest(name string, candidates []string) string {
	best, bestD := "", 0
	limit := max(2, len(name)/3)
	for _, c := range candidates {
		d := editDistance(name, c)
		if strings.HasPrefix(c, name) && len(name) >= 3 {
			d = min(d, 1) // a prefix is a likely abbreviation
		}
		if d <= limit && (best == "" || d < bestD) {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int { return smetrics.WagnerFischer(a, b, 1, 1, 1) }

// commandNames are the app's command names and aliases, help excluded.
func commandNames(app *cli.App) []string {
	var out []string
	for _, c := range app.Commands {
		if c.Name != "help" {
			out = append(out, c.Names()...)
		}
	}
	return out
}

// unknownCommand is the usage error for a mistyped command.
func unknownCommand(app *cli.App, name string) error {
	msg := fmt.Sprintf("unknown command %q", name)
	if s := suggest(name, commandNames(app)); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return usagef("Run 'rgit --help'", "%s", msg)
}

var undefinedFlag = regexp.MustCompile(`flag provided but not defined: -+(\S+)`)

// flagUsageError turns urfave/cli's parse error of a command's flags into
// one line with a "did you mean" and a hint naming the command's help: the
// help itself is not dumped.
func flagUsageError(c *cli.Context, err error) error {
	cmd := "rgit"
	var names []string
	if c.Command != nil && c.Command.Name != "" && (c.App == nil || c.Command.Name != c.App.Name) {
		cmd += " " + c.Command.Name
		for _, f := range c.Command.Flags {
			names = append(names, f.Names()...)
		}
	}
	hint := fmt.Sprintf("Run '%s --help'", cmd)
	if m := undefinedFlag.FindStringSubmatch(err.Error()); m != nil {
		msg := fmt.Sprintf("unknown flag %s", dashed(m[1]))
		if s := suggest(m[1], names); s != "" {
			msg += fmt.Sprintf(" (did you mean %s?)", dashed(s))
		}
		return usagef(hint, "%s", msg)
	}
	if m := invalidValue.FindStringSubmatch(err.Error()); m != nil {
		return usagef(hint, "invalid value %q for %s", m[1], dashed(m[2]))
	}
	return usagef(hint, "%s", err.Error())
}

var invalidValue = regexp.MustCompile(`invalid value "(.*)" for flag -+(\S+):`)

func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}
