//go:build !unix

package main

import "os"

// terminalWidth is $COLUMNS, or 80.
func terminalWidth(io *IO) int { return columnsEnv(io) }

// fileWidth is 0 where rgit does not ask the terminal: COLUMNS or 80 apply.
func fileWidth(*os.File) int { return 0 }
