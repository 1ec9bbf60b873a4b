package main

import (
	"slices"
	"testing"
)

func TestBudgetArgv(t *testing.T) {
	tests := []struct {
		cost   float64
		tokens int64
		want   []string
	}{
		{0, 0, []string{"--yes"}},
		{2.5, 0, []string{"--yes", "--max-cost=2.5"}},
		{0, 200000, []string{"--yes", "--max-tokens=200000"}},
		{0.1, 5, []string{"--yes", "--max-cost=0.1", "--max-tokens=5"}},
	}
	for _, tt := range tests {
		if got := budgetArgv([]string{"--yes"}, tt.cost, tt.tokens); !slices.Equal(got, tt.want) {
			t.Errorf("budgetArgv(%g, %d) = %q, want %q", tt.cost, tt.tokens, got, tt.want)
		}
	}
}
