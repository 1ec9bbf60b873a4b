package phases

import (
	"strings"
	"testing"
	"time"
)

func TestClock(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	fixed := FixedClock(at)
	if !fixed.Now().Equal(at) || since(fixed, at) != 0 {
		t.Errorf("FixedClock moved")
	}
	if got := commitTime(fixed); !got.Equal(at) {
		t.Errorf("commitTime(fixed) = %v", got)
	}
	if got := commitTime(SystemClock); !got.IsZero() {
		t.Errorf("commitTime(system) = %v, want zero so GIT_*_DATE still applies", got)
	}
	if a, b := newToken(fixed), newToken(fixed); a != b || a != "20260102T030405Z-000000000000" {
		t.Errorf("tokens on a fixed clock: %q, %q", a, b)
	}
	if a, b := newToken(SystemClock), newToken(SystemClock); a == b || !strings.Contains(a, "-") {
		t.Errorf("tokens on the system clock must differ: %q, %q", a, b)
	}
	if d := since(SystemClock, time.Now().Add(-time.Hour)); d < time.Hour {
		t.Errorf("since = %v", d)
	}
}

// testNow is the fixed clock of phases' tests.
var testNow = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
