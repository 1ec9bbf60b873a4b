package index

import (
	"syscall"
	"unsafe"
)

const (
	hugePage     = 2 << 20
	madvHugepage = 14 // MADV_HUGEPAGE
)

// adviseHuge asks for huge pages on the 2 MB-aligned part of [p, p+size).
// Failure (no transparent huge pages in this kernel) leaves small pages.
func adviseHuge(p unsafe.Pointer, size uintptr) {
	start := (uintptr(p) + hugePage - 1) &^ (hugePage - 1)
	end := (uintptr(p) + size) &^ (hugePage - 1)
	if end > start {
		syscall.Syscall(syscall.SYS_MADVISE, start, end-start, madvHugepage)
	}
}
