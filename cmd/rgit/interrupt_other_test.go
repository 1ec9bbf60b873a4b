//go:build !unix

package main

import "os"

// interrupt ends the process: other systems cannot send Ctrl-C to it.
func interrupt(p *os.Process) { _ = p.Kill() }
