package index

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A cache cut short anywhere is refused with an error, never a panic or
// an index that reads past its arrays.
func TestLoadTruncatedCache(t *testing.T) {
	corpus := t.TempDir()
	for i := range 6 {
		write(t, corpus, fmt.Sprintf("d%d/f%d.go", i%3, i), fmt.Sprintf("// F%d does x.\nfunc F%d() { starvation%d() }\n\n// G is y.\nfunc G() {}\n", i, i, i))
	}
	ix, _, err := Open(context.Background(), Config{Dirs: []string{corpus}})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "x.idx")
	if err := save(file, ix); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := load(file); err != nil || !slices.Equal(results(got, "starvation7"), results(ix, "starvation7")) {
		t.Fatalf("load of a whole cache: err %v", err)
	}
	cut := filepath.Join(t.TempDir(), "cut.idx")
	for n := range len(data) {
		if err := os.WriteFile(cut, data[:n], 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := load(cut); err == nil {
			t.Fatalf("load of the first %d of %d bytes: no error", n, len(data))
		}
	}
}

// view uses bytes in place only when they are aligned for the integers.
func TestView(t *testing.T) {
	buf := make([]uint64, 4) // 8-aligned
	b := unsafeBytes(buf)
	for i := range 4 {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(i+1))
	}
	tests := []struct {
		b    []byte
		n    int
		want []uint32 // nil: not viewed
	}{
		{b[:16], 4, []uint32{1, 2, 3, 4}},
		{b[4:12], 2, []uint32{2, 3}},
		{b[1:9], 2, nil},
		{b[:16], 3, nil},
		{b[:0], 0, nil},
	}
	for _, tt := range tests {
		got, ok := view[uint32](tt.b, tt.n)
		if wantOK := tt.want != nil && littleEndian; ok != wantOK || ok && !slices.Equal(got, tt.want) {
			t.Errorf("view(%d bytes, %d) = %v, %v; want %v", len(tt.b), tt.n, got, ok, tt.want)
		}
	}
}
