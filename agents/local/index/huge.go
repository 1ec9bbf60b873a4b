package index

import "unsafe"

// Fresh memory is costly to touch on the virtual machines rgit runs on:
// each 4 KB page faulted in took 7 to 14 µs here, so the first pass over a
// 64 MB array took 230 ms, against 6 to 23 ms with 2 MB pages. Where
// transparent huge pages are on request only (the "madvise" setting, the
// default of many distributions), the index asks for them on its large
// arrays: the cold build's dictionaries, postings and blobs and the
// warm open's cache file. Below hugeMin an array cannot hold an aligned
// 2 MB page worth asking for.
const hugeMin = 4 << 20

// makeHuge is make([]T, n, c) whose memory the kernel is asked to back
// with huge pages before it is touched. It is an ordinary Go slice: the
// request is a hint the garbage collector does not know about.
func makeHuge[T any](n, c int) []T {
	s := make([]T, n, c)
	var zero T
	if size := uintptr(c) * unsafe.Sizeof(zero); size >= hugeMin {
		adviseHuge(unsafe.Pointer(unsafe.SliceData(s)), size)
	}
	return s
}
