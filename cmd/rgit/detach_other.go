//go:build !unix && !windows

package main

import (
	"os"
	"os/exec"
)

func detachProcess(*exec.Cmd, *os.File) string { return "3" }
func openReady(h uintptr) *os.File             { return os.NewFile(h, "rgit-ready") }
func redirectStdio()                           {}
func killDetached(p *os.Process)               { _ = p.Kill() }
