//go:build unix

package index

import (
	"runtime"
	"syscall"
	"testing"
)

// reportRSS reports the process's peak resident memory so far.
func reportRSS(b *testing.B) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return
	}
	mb := float64(ru.Maxrss) / 1024 // KiB on Linux and the BSDs
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		mb = float64(ru.Maxrss) / (1 << 20) // bytes there
	}
	b.ReportMetric(mb, "peak-RSS-MB")
}
