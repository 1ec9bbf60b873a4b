package main

import (
	"strconv"
	"strings"
	"time"

	"github.com/rgit-dev/rgit/phases"
)

// nowEnv fixes rgit's clock for reproducible tests and demos: an RFC 3339
// time ("2026-01-01T00:00:00Z") or Unix seconds ("@1767225600"). With it,
// commit dates, state.json, run tokens and every printed duration are the
// same on every run, so a mock session's commits are identical byte for
// byte. Unset, rgit uses the real clock.
const nowEnv = "RGIT_NOW"

// clockFrom reads RGIT_NOW through getenv.
func clockFrom(getenv func(string) string) (phases.Clock, error) {
	v := strings.TrimSpace(getenv(nowEnv))
	if v == "" {
		return phases.SystemClock, nil
	}
	if secs, ok := strings.CutPrefix(v, "@"); ok {
		n, err := strconv.ParseInt(secs, 10, 64)
		if err != nil {
			return nil, badNow(v)
		}
		return phases.FixedClock(time.Unix(n, 0).UTC()), nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return nil, badNow(v)
	}
	return phases.FixedClock(t), nil
}

func badNow(v string) error {
	return usagef(`set `+nowEnv+` to an RFC 3339 time such as 2026-01-01T00:00:00Z, or @<unix seconds>, or unset it`,
		"invalid %s %q", nowEnv, v)
}
