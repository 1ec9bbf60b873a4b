//go:build !unix

package main

import "os"

// terminalWidth is 0 where rgit does not ask the terminal: COLUMNS or 80 apply.
func terminalWidth(*os.File) int { return 0 }
