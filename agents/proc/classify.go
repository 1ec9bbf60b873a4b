package proc

import (
	"strings"

	"github.com/rgit-dev/rgit/agents"
)

// The phrases come from the CLIs' real failures, captured against local
// servers answering 401/429 (see testdata/fakeagents/captures): claude
// "Not logged in · Please run /login", "Invalid API key · Fix external API
// key", "Credit balance is too low", "API Error: Request rejected (429)";
// codex "unexpected status 401 Unauthorized", "exceeded retry limit, last
// status: 429 Too Many Requests", "Quota exceeded. Check your plan and
// billing details."; gemini "Please set an Auth method", "API key not
// valid", "You exceeded your current quota ... Please retry in 20.5s";
// opencode "Incorrect API key provided", "Rate limit reached".
var (
	authPhrases = []string{
		"not logged in", "please run /login", "invalid api key", "invalid x-api-key",
		"incorrect api key", "api key not valid", "api_key_invalid", "authentication_error",
		"authentication_failed", "401 unauthorized", "status 401", "(401)",
		"please set an auth method", "invalid auth method", "oauth token has expired",
		"token expired", "codex login", "missing api key", "no api key", "api key is missing",
		"permission_denied", "403 forbidden",
	}
	quotaPhrases = []string{
		"credit balance is too low", "billing_error", "insufficient_quota", "quota exceeded.",
		"check your plan and billing", "usage limit", "hit your limit", "limit reached ∙ resets",
		"limit reached · resets", "out of credits", "daily limit", "monthly limit",
		"insufficient balance", "payment required",
	}
	ratePhrases = []string{
		"rate limit", "rate_limit", "ratelimit", "(429)", "status 429", "429 too many",
		"too many requests", "overloaded", "resource_exhausted", "resource exhausted",
		"try again in", "retry in", "retry after", "quota exceeded",
	}
)

// retrySoon marks a quota message that is really a per-minute limit.
var retrySoon = []string{"retry in", "try again in", "per minute", "resets in"}

// Classify returns the agents error kind that a CLI's error message names:
// agents.ErrAuth, agents.ErrQuota, agents.ErrRateLimited, or nil for any
// other failure. Auth wins over quota, and quota over rate limits, because
// quota messages often carry a 429 and rate-limit ones the word "quota".
func Classify(msg string) error {
	m := strings.ToLower(msg)
	switch {
	case containsAny(m, authPhrases):
		return agents.ErrAuth
	case containsAny(m, quotaPhrases) && !containsAny(m, retrySoon):
		return agents.ErrQuota
	case containsAny(m, ratePhrases):
		return agents.ErrRateLimited
	}
	return nil
}

// ClassifyStatus maps an HTTP status reported by a CLI to an error kind,
// with msg breaking the tie between a rate limit and an exhausted quota.
func ClassifyStatus(status int, msg string) error {
	switch {
	case status == 401 || status == 403:
		return agents.ErrAuth
	case status == 402:
		return agents.ErrQuota
	case status == 429 || status == 529:
		if k := Classify(msg); k == agents.ErrQuota {
			return k
		}
		return agents.ErrRateLimited
	}
	return Classify(msg)
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
