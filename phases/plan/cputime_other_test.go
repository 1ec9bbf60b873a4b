//go:build !unix

package plan

// cpuTime is unavailable here; the benchmarks then report 0 cpu-ns/op.
func cpuTime() int64 { return 0 }
