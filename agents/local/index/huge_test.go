package index

import (
	"fmt"
	"runtime"
	"testing"
	"unsafe"
)

// makeHuge is make: the length and capacity asked for, zeroed, and an
// ordinary Go slice the collector keeps and scans, whatever its size.
func TestMakeHuge(t *testing.T) {
	for _, tt := range []struct{ n, c int }{{0, 0}, {3, 10}, {hugeMin, hugeMin}, {0, 3 * hugeMin}, {hugeMin + 5, 2*hugeMin + 1}} {
		b := makeHuge[byte](tt.n, tt.c)
		if len(b) != tt.n || cap(b) != tt.c {
			t.Errorf("makeHuge(%d, %d): len %d cap %d", tt.n, tt.c, len(b), cap(b))
		}
		for i, v := range b[:tt.n:tt.c][:cap(b)] {
			if v != 0 {
				t.Fatalf("makeHuge(%d, %d)[%d] = %d, not zero", tt.n, tt.c, i, v)
			}
		}
	}
	const n = hugeMin / 8 // strings: the collector must see the pointers
	s := makeHuge[string](n, n)
	for i := 0; i < n; i += n / 100 {
		s[i] = fmt.Sprint(i)
	}
	runtime.GC()
	for i := 0; i < n; i += n / 100 {
		if want := fmt.Sprint(i); s[i] != want {
			t.Fatalf("s[%d] = %q after a collection, want %q", i, s[i], want)
		}
	}
}

// unsafeBytes is the memory of a as bytes.
func unsafeBytes(a []uint64) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(a))), 8*len(a))
}
