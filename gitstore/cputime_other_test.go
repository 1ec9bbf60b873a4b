//go:build !linux

package gitstore

import "time"

// threadCPU runs f; thread CPU time is measured on Linux only, elsewhere it
// reports zero.
func threadCPU(f func()) time.Duration {
	f()
	return 0
}
