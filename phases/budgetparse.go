package phases

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ParseCost reads a cost budget in US dollars: "2.50" or "$2.50"; "" and
// "0" are none.
func ParseCost(s string) (float64, error) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "$")
	if s == "" {
		return 0, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, fmt.Errorf("want US dollars, 0 or more, such as 2.50")
	}
	return v, nil
}

// ParseTokens reads a token budget: "200000", "200k" or "1.5M"; "" and
// "0" are none.
func ParseTokens(s string) (int64, error) {
	s = strings.ToLower(strings.ReplaceAll(strings.TrimSpace(s), "_", ""))
	if s == "" {
		return 0, nil
	}
	mult := 1.0
	switch {
	case strings.HasSuffix(s, "k"):
		s, mult = strings.TrimSuffix(s, "k"), 1e3
	case strings.HasSuffix(s, "m"):
		s, mult = strings.TrimSuffix(s, "m"), 1e6
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 || v*mult > 1e15 || math.IsNaN(v) || v*mult != math.Trunc(v*mult) {
		return 0, fmt.Errorf("want a whole number of tokens, 0 or more, such as 200000, 200k or 1.5M")
	}
	return int64(v * mult), nil
}
