package phases

import (
	"crypto/rand"
	"encoding/hex"
	"time"
)

// Clock tells rgit the time. Everything rgit records reads it: commit
// dates, state.json's times, the lock's times, run tokens, recovery notes,
// phase and agent durations and the --time budget. So a fixed clock makes
// a mock session reproducible byte for byte (cmd fixes it with RGIT_NOW).
type Clock interface {
	Now() time.Time
}

// SystemClock is the real clock.
var SystemClock Clock = systemClock{}

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

// FixedClock always says the same instant: every duration is zero, no
// budget runs out, no lock goes stale by age, and run tokens are not
// random, so two runs with one FixedClock write identical commits. It is
// for tests and demos.
type FixedClock time.Time

// Now returns the fixed instant.
func (c FixedClock) Now() time.Time { return time.Time(c) }

// since is the time elapsed on c since t.
func since(c Clock, t time.Time) time.Duration { return c.Now().Sub(t) }

// commitTime is the author and committer date of a new commit: zero on the
// system clock, which lets gitstore honour GIT_AUTHOR_DATE and
// GIT_COMMITTER_DATE as git does; the clock's time otherwise.
func commitTime(c Clock) time.Time {
	if _, real := c.(systemClock); real {
		return time.Time{}
	}
	return c.Now()
}

// unixSeconds is t as state.json stores times: fractional Unix seconds.
func unixSeconds(t time.Time) float64 { return float64(t.UnixNano()) / 1e9 }

// newToken names one run: its start time and 48 random bits (none on a
// clock that is not the system clock, so tests get the same token).
func newToken(c Clock) string {
	var b [6]byte
	if _, real := c.(systemClock); real {
		_, _ = rand.Read(b[:])
	}
	return c.Now().UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
}
