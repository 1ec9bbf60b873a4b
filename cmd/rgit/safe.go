package main

import (
	"strings"

	"github.com/rgit-dev/rgit/phases"
)

// Everything printed from session data (topics, names, agent output,
// commit summaries, errors that quote them) goes through safe or
// safeText: a session may come from someone else's branch, and an agent's
// text may hold terminal escape sequences (phases.Terminal).

// safe is one line of session data, fit for a terminal.
func safe(s string) string { return phases.TerminalLine(s) }

// safeText is multi-line session data, fit for a terminal.
func safeText(s string) string { return phases.Terminal(s) }

// safeJoin is a list of session data on one line.
func safeJoin(items []string, sep string) string {
	out := make([]string, len(items))
	for i, s := range items {
		out[i] = safe(s)
	}
	return strings.Join(out, sep)
}
