//go:build !unix

package main

// terminalWidth is $COLUMNS, or 80.
func terminalWidth(io *IO) int { return columnsEnv(io) }
