//go:build !linux

package phases

import "time"

// processCPU is measured on Linux only; elsewhere it reports zero.
func processCPU() time.Duration { return 0 }
