package mock

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/rgit-dev/rgit/agents"
)

// ParseUsage reads RGIT_MOCK_USAGE: "IN/OUT" tokens every successful
// call reports instead of the estimate from the bytes it read and wrote,
// and optionally "/COST" in US dollars, as a CLI that reports its own
// cost does. "1000/500" is 1,500 tokens a call and no cost;
// "1000/500/0.01" adds $0.01. Fixed figures make budget tests exact.
func ParseUsage(s string) (*agents.Usage, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	parts := strings.Split(s, "/")
	if len(parts) < 2 || len(parts) > 3 {
		return nil, fmt.Errorf(`want "IN/OUT" tokens or "IN/OUT/COST", such as "1000/500" or "1000/500/0.01"`)
	}
	var u agents.Usage
	for i, into := range []*int64{&u.InputTokens, &u.OutputTokens} {
		n, err := strconv.ParseInt(strings.TrimSpace(parts[i]), 10, 64)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("%q is not a token count, 0 or more", parts[i])
		}
		*into = n
	}
	if len(parts) == 3 {
		c, err := strconv.ParseFloat(strings.TrimPrefix(strings.TrimSpace(parts[2]), "$"), 64)
		if err != nil || c < 0 {
			return nil, fmt.Errorf("%q is not a cost in US dollars, 0 or more", parts[2])
		}
		u.CostUSD = c
	}
	return &u, nil
}

// suggestProfile adds "- Suggested Profile: NAME" to a plan's metadata,
// as a planner that judged the question's scope does (RGIT_MOCK_PROFILE).
func suggestProfile(path, profile string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read plan: %w", err)
	}
	const at = "## Metadata\n"
	s := strings.Replace(string(data), at, at+"- Suggested Profile: "+profile+"\n", 1)
	return writeOutput(path, s)
}
