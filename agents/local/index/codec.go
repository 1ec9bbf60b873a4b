package index

import (
	"encoding/binary"
	"io"
	"unsafe"
)

// enc and dec write and read the cache's fields.
type enc struct {
	w   io.Writer
	n   int // bytes written
	err error
	tmp [binary.MaxVarintLen64]byte
}

func (e *enc) bytes(b []byte) {
	if e.err == nil {
		_, e.err = e.w.Write(b)
		e.n += len(b)
	}
}

// pad writes zeros up to a multiple of align bytes from the start: the
// arrays of fixed-width integers are aligned, so that a load on a
// little-endian machine uses them where they lie in the file's bytes.
func (e *enc) pad(align int) {
	var zero [8]byte
	e.bytes(zero[:(align-e.n%align)%align])
}
func (e *enc) uint(v uint64) { e.bytes(binary.AppendUvarint(e.tmp[:0], v)) }
func (e *enc) str(s string)  { e.uint(uint64(len(s))); e.bytes([]byte(s)) }
func (e *enc) u64s(a []uint64) {
	e.uint(uint64(len(a)))
	e.pad(8)
	buf := make([]byte, 0, 8*len(a))
	for _, v := range a {
		buf = binary.LittleEndian.AppendUint64(buf, v)
	}
	e.bytes(buf)
}
func (e *enc) u32s(a []uint32) {
	e.uint(uint64(len(a)))
	e.pad(4)
	buf := make([]byte, 0, 4*len(a))
	for _, v := range a {
		buf = binary.LittleEndian.AppendUint32(buf, v)
	}
	e.bytes(buf)
}

type dec struct {
	b    []byte
	size int // of the whole input, of which b is the rest
	err  error
}

// pad skips the zeros enc.pad wrote.
func (d *dec) pad(align int) {
	d.take((align - (d.size-len(d.b))%align) % align)
}

func (d *dec) take(n int) []byte {
	if d.err != nil || n < 0 || n > len(d.b) {
		if d.err == nil {
			d.err = io.ErrUnexpectedEOF
		}
		return make([]byte, max(n, 0)&0xffff)
	}
	out := d.b[:n:n]
	d.b = d.b[n:]
	return out
}

func (d *dec) uint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = io.ErrUnexpectedEOF
		return 0
	}
	d.b = d.b[n:]
	return v
}

// count reads a length and checks that at least n bytes per item remain.
func (d *dec) count(n int) int {
	v := d.uint()
	if v > uint64(len(d.b)/n) {
		d.err = io.ErrUnexpectedEOF
		return 0
	}
	return int(v)
}

func (d *dec) str() string { return string(d.take(d.count(1))) }

func (d *dec) u32s() []uint32 {
	n := d.count(4)
	d.pad(4)
	b := d.take(4 * n)
	if d.err != nil {
		return nil
	}
	if out, ok := view[uint32](b, n); ok {
		return out
	}
	out := makeHuge[uint32](n, n)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return out
}

func (d *dec) u64s() []uint64 {
	n := d.count(8)
	d.pad(8)
	b := d.take(8 * n)
	if d.err != nil {
		return nil
	}
	if out, ok := view[uint64](b, n); ok {
		return out
	}
	out := makeHuge[uint64](n, n)
	for i := range out {
		out[i] = binary.LittleEndian.Uint64(b[8*i:])
	}
	return out
}

// littleEndian says whether this machine stores integers as the cache does.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// view returns b as n little-endian integers in place, when the machine
// is little-endian and b is aligned for them: a warm open then makes no
// copy of its largest arrays. The loaded index never writes to them.
func view[T uint32 | uint64](b []byte, n int) ([]T, bool) {
	var zero T
	size := unsafe.Sizeof(zero)
	if !littleEndian || len(b) != n*int(size) || n == 0 || uintptr(unsafe.Pointer(unsafe.SliceData(b)))%size != 0 {
		return nil, false
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n), true
}
