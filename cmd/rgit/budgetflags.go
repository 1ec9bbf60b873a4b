package main

import (
	"strconv"

	"github.com/urfave/cli/v2"

	"github.com/rgit-dev/rgit/phases"
)

// budgetFlags are research's spending limits and prices (phases/budget.go).
// Their git config keys are research.maxCost and research.maxTokens (with
// the profiles' settings: a flag over git config over the profile) and
// research.prices (gitConfigKeys).
func budgetFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "max-cost", Usage: "cost budget of the whole session in `USD`, such as 2.50: research stops when what is spent, the calls in flight and the synthesis reserve would pass it (git config research.maxCost)"},
		&cli.StringFlag{Name: "max-tokens", Usage: "token budget of the whole session (input plus output), `N` such as 200000, 200k or 1.5M; checked like --max-cost (git config research.maxTokens)"},
		&cli.StringFlag{Name: "prices", Usage: phases.PricesHelp + " (git config research.prices)"},
	}
}

// budgetConfig reads budgetFlags into cfg; it touches nothing. A flag the
// user did not give leaves what the profile and git config set.
func budgetConfig(c *cli.Context, cfg *phases.Config) error {
	if c.IsSet("max-cost") {
		v, err := phases.ParseCost(c.String("max-cost"))
		if err != nil {
			return usagef("pass --max-cost in US dollars, such as --max-cost 2.50 (or fix git config research.maxCost)", "invalid --max-cost %q: %v", c.String("max-cost"), err)
		}
		cfg.MaxCostUSD = v
	}
	if c.IsSet("max-tokens") {
		v, err := phases.ParseTokens(c.String("max-tokens"))
		if err != nil {
			return usagef("pass --max-tokens as a whole number, such as --max-tokens 200000 or 200k (or fix git config research.maxTokens)", "invalid --max-tokens %q: %v", c.String("max-tokens"), err)
		}
		cfg.MaxTokens = v
	}
	if c.String("prices") != "" {
		p, err := phases.ParsePrices(c.String("prices"))
		if err != nil {
			return err
		}
		cfg.Prices = p
	}
	return nil
}

// budgetArgv adds the budgets of an MCP request to `rgit research` args.
func budgetArgv(args []string, costUSD float64, tokens int64) []string {
	if costUSD > 0 {
		args = append(args, "--max-cost="+strconv.FormatFloat(costUSD, 'f', -1, 64))
	}
	if tokens > 0 {
		args = append(args, "--max-tokens="+strconv.FormatInt(tokens, 10))
	}
	return args
}
