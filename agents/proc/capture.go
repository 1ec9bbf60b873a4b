package proc

import (
	"bytes"
	"io"
)

// capture is a capped output buffer.
type capture interface {
	io.Writer
	bytes() []byte
	cut() bool // whether anything was dropped
}

// headBuffer keeps the first max bytes written to it: structured output
// (one JSON document) is useless once cut in the middle, so the start is
// what a parser can still use.
type headBuffer struct {
	buf       []byte
	max       int
	truncated bool
}

func (b *headBuffer) Write(p []byte) (int, error) {
	room := b.max - len(b.buf)
	if room < len(p) {
		b.truncated = true
		if room > 0 {
			b.buf = append(b.buf, p[:room]...)
		}
		return len(p), nil
	}
	b.buf = append(b.buf, p...)
	return len(p), nil
}

// tailBuffer keeps the last max bytes written to it: a CLI prints its
// fatal error last, after any amount of progress chatter.
type tailBuffer struct {
	buf       []byte
	max       int
	truncated bool
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	n := len(p)
	if len(p) >= b.max {
		b.truncated = b.truncated || len(b.buf) > 0 || len(p) > b.max
		b.buf = append(b.buf[:0], p[len(p)-b.max:]...)
		return n, nil
	}
	if over := len(b.buf) + len(p) - b.max; over > 0 {
		b.truncated = true
		b.buf = append(b.buf[:0], b.buf[over:]...)
	}
	b.buf = append(b.buf, p...)
	return n, nil
}

func (b *tailBuffer) bytes() []byte { return b.buf }
func (b *tailBuffer) cut() bool     { return b.truncated }
func (b *headBuffer) bytes() []byte { return b.buf }
func (b *headBuffer) cut() bool     { return b.truncated }

// copyLines copies r into keep and, when onLine is set, hands it every
// complete line (and a final unterminated one). A line that fits in one
// read is passed straight from the read buffer; only lines split across
// reads are assembled. Lines longer than DefaultMaxLine are skipped whole
// rather than delivered cut, since a cut JSON event would only fail to
// parse later.
func copyLines(r io.Reader, keep io.Writer, onLine func([]byte)) {
	chunk := make([]byte, 64<<10) // a pipe delivers at most 64 KiB per read
	var line []byte
	skipping := false
	emit := func(b []byte) { onLine(bytes.TrimSuffix(b, []byte("\r"))) }
	for {
		n, err := r.Read(chunk)
		data := chunk[:n]
		keep.Write(data)
		for onLine != nil && len(data) > 0 {
			i := bytes.IndexByte(data, '\n')
			if i < 0 {
				if !skipping {
					line = append(line, data...)
					if len(line) > DefaultMaxLine {
						line, skipping = line[:0], true
					}
				}
				break
			}
			switch {
			case skipping:
			case len(line) == 0:
				emit(data[:i])
			default:
				line = append(line, data[:i]...)
				emit(line)
			}
			line, skipping = line[:0], false
			data = data[i+1:]
		}
		if err != nil {
			if onLine != nil && len(line) > 0 && !skipping {
				emit(line)
			}
			return
		}
	}
}
