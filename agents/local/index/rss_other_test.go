//go:build !unix

package index

import "testing"

// reportRSS is a no-op where getrusage does not exist; measure peak memory
// with the system's own tools there.
func reportRSS(*testing.B) {}
