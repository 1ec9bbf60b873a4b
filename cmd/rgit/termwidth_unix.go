//go:build unix

package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// terminalWidth is standard error's width in columns, or $COLUMNS, or 80.
func terminalWidth(io *IO) int {
	if n := fileWidth(os.Stderr); n > 0 {
		return n
	}
	return columnsEnv(io)
}

// fileWidth is the columns of the terminal f is, or 0.
func fileWidth(f *os.File) int {
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil {
		return 0
	}
	return int(ws.Col)
}
