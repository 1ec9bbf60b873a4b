package main

import (
	"io"
	"os"
)

// IO holds the streams and environment every command reads and writes;
// tests pass buffers and a map.
type IO struct {
	In     io.Reader
	Out    io.Writer
	Err    io.Writer
	IsTTY  bool                    // standard input and error are a terminal: rgit may ask questions
	ErrTTY bool                    // standard error is a terminal: progress may redraw a status line
	Getenv func(key string) string // nil is os.Getenv
}

func newIO(in *os.File, out, errw *os.File) *IO {
	return &IO{In: in, Out: out, Err: errw, IsTTY: isTerminal(in) && isTerminal(errw), ErrTTY: isTerminal(errw), Getenv: os.Getenv}
}

func (io *IO) getenv(key string) string {
	if io.Getenv == nil {
		return os.Getenv(key)
	}
	return io.Getenv(key)
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
