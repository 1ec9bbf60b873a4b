package proc

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os/exec"
	"testing"
)

// BenchmarkRun measures a whole call of /bin/true through Run (process
// group, pipes, reaping, the group kill); BenchmarkRunBaseline is the same
// call with plain os/exec, the floor Run's extra work is measured against.
func BenchmarkRun(b *testing.B) {
	for b.Loop() {
		if _, err := Run(context.Background(), Cmd{Path: "/bin/true"}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRunBaseline(b *testing.B) {
	for b.Loop() {
		if _, err := exec.Command("/bin/true").Output(); err != nil {
			b.Fatal(err)
		}
	}
}

// stream is 4 MiB of JSONL shaped like a claude stream: mostly short
// events, some long tool results.
func stream() []byte {
	var buf bytes.Buffer
	short := []byte(`{"type":"assistant","message":{"content":[{"type":"text","text":"a sentence of findings"}]},"session_id":"9408bea7-c831-4edd-9a00-e7475e63fb4b"}` + "\n")
	long := append(append([]byte(`{"type":"user","message":{"content":[{"type":"tool_result","content":"`), bytes.Repeat([]byte("x"), 200<<10)...), "\"}]}}\n"...)
	for buf.Len() < 4<<20 {
		for i := 0; i < 100; i++ {
			buf.Write(short)
		}
		buf.Write(long)
	}
	return buf.Bytes()
}

// BenchmarkCopyLines splits a stream into lines while keeping a capped
// tail, as Run does with stdout; BenchmarkCopyLinesBaseline splits the
// same stream with a bufio.Scanner sized for the longest line.
func BenchmarkCopyLines(b *testing.B) {
	data := stream()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		n := 0
		copyLines(bytes.NewReader(data), &tailBuffer{max: DefaultMaxStderr}, func([]byte) { n++ })
		if n == 0 {
			b.Fatal("no lines")
		}
	}
}

func BenchmarkCopyLinesBaseline(b *testing.B) {
	data := stream()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		sc := bufio.NewScanner(io.Reader(bytes.NewReader(data)))
		sc.Buffer(make([]byte, 64<<10), DefaultMaxLine)
		n := 0
		for sc.Scan() {
			n++
		}
		if n == 0 {
			b.Fatal("no lines")
		}
	}
}
