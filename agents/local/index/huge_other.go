//go:build !linux

package index

import "unsafe"

// adviseHuge does nothing where huge pages cannot be asked for this way.
func adviseHuge(unsafe.Pointer, uintptr) {}
