package main

import "github.com/rgit-dev/rgit/phases"

// A fork's log holds its source's commits below the fork commit: `rgit
// log` then adds a SESSION column naming who wrote each row, the shared
// rows marked. Other logs keep their columns.

// forkedLog says whether any row was written by another session.
func forkedLog(rows []phases.PhaseRow, name string) bool {
	for _, r := range rows {
		if r.Session != "" && r.Session != name {
			return true
		}
	}
	return false
}

// forkColumn is col in a forked log, nothing otherwise.
func forkColumn(forked bool, col string) string {
	if !forked {
		return ""
	}
	return col
}

// sessionMark is a row's SESSION cell: the session, and "(shared)" for
// the history the fork took from its source.
func sessionMark(r phases.PhaseRow, name string) string {
	switch r.Session {
	case name:
		return name
	case "":
		return "-"
	}
	return r.Session + " (shared)"
}
