package main

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// reorderArgs moves every flag of a command in front of its positional
// arguments, because urfave/cli v2 stops parsing flags at the first
// positional argument: `rgit research "topic" --breadth 2` must mean
// `rgit research --breadth 2 "topic"`. A "--" ends flag parsing as usual.
func reorderArgs(app *cli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	out := []string{args[0]}
	rest := args[1:]
	// Global flags come before the command name; rgit has none but help/version.
	for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
		out = append(out, rest[0])
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return out
	}
	cmd := app.Command(rest[0])
	if cmd == nil {
		return append(out, rest...)
	}
	out = append(out, rest[0])
	flags, positional := splitFlags(cmd, rest[1:])
	out = append(out, flags...)
	if wantsHelp(flags) {
		return out // `rgit research "x" --help` is the command's help, not help on a topic "x"
	}
	if len(positional) > 0 {
		out = append(out, "--")
		out = append(out, positional...)
	}
	return out
}

// splitFlags separates a command's flags (with their values) from its
// positional arguments, keeping the order within each group.
func splitFlags(cmd *cli.Command, args []string) (flags, positional []string) {
	takesValue := map[string]bool{}
	for _, f := range cmd.Flags {
		_, isBool := f.(*cli.BoolFlag)
		for _, n := range f.Names() {
			takesValue[n] = !isBool
		}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			positional = append(positional, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			positional = append(positional, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		if takesValue[name] && i+1 < len(args) {
			flags = append(flags, args[i+1])
			i++
		}
	}
	return flags, positional
}

func wantsHelp(flags []string) bool {
	for _, f := range flags {
		if f == "-h" || f == "--help" || f == "-help" {
			return true
		}
	}
	return false
}
