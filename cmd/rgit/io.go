package main

import (
	"io"
	"os"
)

// IO holds the streams every command reads and writes; tests pass buffers.
type IO struct {
	In    io.Reader
	Out   io.Writer
	Err   io.Writer
	IsTTY bool // standard input and error are a terminal: rgit may ask questions
}

func newIO(in *os.File, out, errw *os.File) *IO {
	return &IO{In: in, Out: out, Err: errw, IsTTY: isTerminal(in) && isTerminal(errw)}
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
