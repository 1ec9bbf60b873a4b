package main

import (
	"fmt"
	"strings"

	"github.com/rgit-dev/rgit/phases"
)

// costText is a cost for people: "$0.0123", or "no cost" when nothing
// reported or priced one (mock, local, a model without a price), never a
// "$0.0000" that reads as free.
func costText(usd float64) string {
	if usd <= 0 {
		return "no cost"
	}
	return fmt.Sprintf("$%.4f", usd)
}

// spendText is a session's total usage with its budgets, for the summary
// and status: "12345 tokens, $0.0123 (budgets: $1.00, 500000 tokens)".
func spendText(s phases.Spend, b *phases.Budget) string {
	var parts []string
	if s.Tokens() > 0 {
		parts = append(parts, fmt.Sprintf("%d tokens", s.Tokens()))
	} else {
		parts = append(parts, "no tokens reported")
	}
	parts = append(parts, costText(s.CostUSD))
	out := fmt.Sprintf("%s in %d calls", strings.Join(parts, ", "), s.Calls)
	if !b.Limited() {
		return out
	}
	var limits []string
	if b.MaxCostUSD > 0 {
		limits = append(limits, fmt.Sprintf("$%.2f", b.MaxCostUSD))
	}
	if b.MaxTokens > 0 {
		limits = append(limits, fmt.Sprintf("%d tokens", b.MaxTokens))
	}
	return out + " (budget " + strings.Join(limits, ", ") + ")"
}

// jsonTotal is a session's usage summed over its backends (status --json,
// list --json): cost_reported is false when no call reported or was
// priced a cost, so cost_usd 0 means unknown, not free.
type jsonTotal struct {
	Calls        int     `json:"calls"`
	InputTokens  int64   `json:"input_tokens"`
	OutputTokens int64   `json:"output_tokens"`
	Tokens       int64   `json:"tokens"`
	CostUSD      float64 `json:"cost_usd"`
	CostReported bool    `json:"cost_reported"`
}

// jsonBudget is a session's budgets and the one that stopped it, if any.
type jsonBudget struct {
	MaxCostUSD float64 `json:"max_cost_usd"`
	MaxTokens  int64   `json:"max_tokens"`
	Reached    string  `json:"reached"` // "cost", "tokens" or ""
}

func toJSONTotal(s phases.SessionInfo) jsonTotal {
	sp := phases.SpendOf(s.Usage)
	return jsonTotal{Calls: sp.Calls, InputTokens: sp.InputTokens, OutputTokens: sp.OutputTokens, Tokens: sp.Tokens(),
		CostUSD: sp.CostUSD, CostReported: sp.CostUSD > 0}
}

func toJSONBudget(s phases.SessionInfo) *jsonBudget {
	b := s.Budget
	if !b.Limited() {
		return nil
	}
	out := &jsonBudget{MaxCostUSD: b.MaxCostUSD, MaxTokens: b.MaxTokens}
	if s.Limit == phases.LimitCost || s.Limit == phases.LimitTokens {
		out.Reached = string(s.Limit)
	}
	return out
}
