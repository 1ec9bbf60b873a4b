package phases

import (
	"strings"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/agents"
)

// TestBudgetHit: the check before each dispatch projects what is spent,
// the mean call for every call in flight and for the research to start
// and its review, and the final cycle's reserve.
func TestBudgetHit(t *testing.T) {
	tokens := &Budget{MaxTokens: 12000}
	cost := &Budget{MaxCostUSD: 1}
	both := &Budget{MaxCostUSD: 1, MaxTokens: 12000}
	spend := func(calls int, tok int64, usd float64) Spend {
		return Spend{Calls: calls, InputTokens: tok * 2 / 3, OutputTokens: tok - tok*2/3, CostUSD: usd}
	}
	tests := []struct {
		name     string
		b        *Budget
		spent    Spend
		inflight int
		want     Limit
	}{
		{"no budget", nil, spend(100, 1e9, 1e3), 0, ""},
		{"prices only", &Budget{Prices: Prices{"mock": {1, 1}}}, spend(100, 1e9, 1e3), 0, ""},
		{"nothing spent yet", tokens, Spend{}, 0, ""},
		{"after the plan", tokens, spend(1, 1500, 0), 0, ""},
		{"exactly at the limit is room", tokens, spend(3, 4500, 0), 0, ""},
		{"a call in flight takes the room", tokens, spend(3, 4500, 0), 1, LimitTokens},
		{"research and its review in flight", tokens, spend(1, 1500, 0), 2, ""},
		{"spent past the research share", tokens, spend(5, 7500, 0), 0, LimitTokens},
		{"spent past the whole budget", tokens, spend(1, 13000, 0), 0, LimitTokens},
		{"the reserve is at least 30%", tokens, spend(100, 8500, 0), 0, LimitTokens},
		{"small mean: 30% reserve decides", tokens, spend(100, 8000, 0), 0, ""},
		{"cost with room", cost, spend(2, 0, 0.10), 0, ""},
		{"cost: ten in flight still fit", cost, spend(2, 0, 0.10), 10, ""},
		{"cost: eleven in flight do not", cost, spend(2, 0, 0.10), 11, LimitCost},
		{"tokens with no cost reported never hit the cost budget", cost, spend(50, 1e9, 0), 0, ""},
		{"cost is checked first", both, spend(5, 7500, 0.9), 0, LimitCost},
		{"tokens when cost has room", both, spend(5, 7500, 0.1), 0, LimitTokens},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := budgetHit(tt.b, tt.spent, tt.inflight); got != tt.want {
				t.Errorf("budgetHit(%+v, %+v, %d) = %q, want %q", tt.b, tt.spent, tt.inflight, got, tt.want)
			}
		})
	}
}

// TestBudgetLimitInFlight: research calls in flight count twice (they and
// their reviews), reviews once.
func TestBudgetLimitInFlight(t *testing.T) {
	st := &State{Settings: Settings{Budget: &Budget{MaxTokens: 12000}}}
	st.init()
	st.account("mock", agents.Usage{InputTokens: 1000, OutputTokens: 500})
	r := &run{state: st}
	s := newScheduler(4)
	if got := r.budgetLimit(s); got != "" {
		t.Fatalf("nothing in flight: %q", got)
	}
	s.start(PhaseReview, "a") // 1500 + (1+2)*1500 + 4500 = 10500
	if got := r.budgetLimit(s); got != "" {
		t.Fatalf("a review in flight: %q", got)
	}
	s.start(PhaseResearch, "b") // + 2*1500 = 13500
	if got := r.budgetLimit(s); got != LimitTokens {
		t.Fatalf("a review and a research in flight: %q, want tokens", got)
	}
	s.finish("b")
	if got := r.budgetLimit(s); got != "" {
		t.Fatalf("after the research ended: %q", got)
	}
}

func TestSpendOf(t *testing.T) {
	got := SpendOf(map[string]*Totals{
		"claude": {Calls: 2, InputTokens: 100, OutputTokens: 20, CostUSD: 0.5},
		"mock":   {Calls: 3, InputTokens: 10, OutputTokens: 5},
	})
	if got != (Spend{Calls: 5, InputTokens: 110, OutputTokens: 25, CostUSD: 0.5}) || got.Tokens() != 135 {
		t.Errorf("SpendOf = %+v", got)
	}
}

func TestResumeBudget(t *testing.T) {
	tests := []struct {
		name       string
		prior      *Budget
		cfg        Config
		want       *Budget
		wantLifted bool
	}{
		{"none and none", nil, Config{}, nil, false},
		{"kept", &Budget{MaxTokens: 10}, Config{}, &Budget{MaxTokens: 10}, false},
		{"raised", &Budget{MaxTokens: 10}, Config{MaxTokens: 20}, &Budget{MaxTokens: 20}, true},
		{"lowered", &Budget{MaxCostUSD: 2}, Config{MaxCostUSD: 1}, &Budget{MaxCostUSD: 1}, false},
		{"added is not lifted", nil, Config{MaxCostUSD: 1}, &Budget{MaxCostUSD: 1}, false},
		{"cost raised, tokens kept", &Budget{MaxCostUSD: 1, MaxTokens: 5}, Config{MaxCostUSD: 3}, &Budget{MaxCostUSD: 3, MaxTokens: 5}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, lifted := resumeBudget(tt.prior, tt.cfg)
			if lifted != tt.wantLifted || (got == nil) != (tt.want == nil) || (got != nil && (got.MaxCostUSD != tt.want.MaxCostUSD || got.MaxTokens != tt.want.MaxTokens)) {
				t.Errorf("resumeBudget = %+v, %v; want %+v, %v", got, lifted, tt.want, tt.wantLifted)
			}
		})
	}
}

func TestParseCostAndTokens(t *testing.T) {
	costs := []struct {
		in   string
		want float64
		ok   bool
	}{{"", 0, true}, {"2.50", 2.5, true}, {"$3", 3, true}, {" 0 ", 0, true}, {"-1", 0, false}, {"abc", 0, false}, {"NaN", 0, false}, {"Inf", 0, false}}
	for _, tt := range costs {
		got, err := ParseCost(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseCost(%q) = %g, %v", tt.in, got, err)
		}
	}
	toks := []struct {
		in   string
		want int64
		ok   bool
	}{{"", 0, true}, {"200000", 200000, true}, {"200k", 200000, true}, {"1.5M", 1500000, true}, {"1_000", 1000, true},
		{"-5", 0, false}, {"1.5", 0, false}, {"lots", 0, false}, {"1e300", 0, false}}
	for _, tt := range toks {
		got, err := ParseTokens(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseTokens(%q) = %d, %v", tt.in, got, err)
		}
	}
}

func TestParsePrices(t *testing.T) {
	tests := []struct {
		in      string
		want    Prices
		wantErr string
	}{
		{"", nil, ""},
		{"openai:gpt-4.1=2/8,codex=1.25/10", Prices{"openai:gpt-4.1": {2, 8}, "codex": {1.25, 10}}, ""},
		{" Mock = $1 / $2 ,", Prices{"mock": {1, 2}}, ""},
		{"gpt4=1/2", nil, `unknown backend "gpt4"`},
		{"codex=1.25", nil, `"codex=1.25" is not key=input/output`},
		{"codex", nil, "is not key=input/output"},
		{"codex=-1/2", nil, `price "-1" is not a number`},
		{"codex=1/x", nil, `price "x" is not a number`},
	}
	for _, tt := range tests {
		got, err := ParsePrices(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParsePrices(%q) error %v, want %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || len(got) != len(tt.want) {
			t.Errorf("ParsePrices(%q) = %v, %v", tt.in, got, err)
			continue
		}
		for k, v := range tt.want {
			if got[k] != v {
				t.Errorf("ParsePrices(%q)[%q] = %v, want %v", tt.in, k, got[k], v)
			}
		}
	}
	if s := (Prices{"codex": {1.25, 10}, "openai:gpt-4.1": {2, 8}}).String(); s != "codex=1.25/10,openai:gpt-4.1=2/8" {
		t.Errorf("String = %q", s)
	}
}

// TestCosted: a reported cost stands; tokens are priced by the user's
// model price, then the user's backend price, then the table's.
func TestCosted(t *testing.T) {
	u := agents.Usage{InputTokens: 1_000_000, OutputTokens: 100_000, Duration: time.Second}
	user := Prices{"openai:gpt-4.1": {2, 8}, "openai": {1, 1}, "claude": {100, 100}}
	tests := []struct {
		name           string
		ps             Prices
		backend, model string
		in             agents.Usage
		want           float64
	}{
		{"the user's model price", user, "openai", "gpt-4.1", u, 2 + 0.8},
		{"the user's backend price", user, "openai", "llama3.1", u, 1 + 0.1},
		{"the table's price", nil, "codex", "gpt-5.1-codex-mini", u, 0.25 + 0.2},
		{"the table's default model", nil, "opencode", "", u, 0},
		{"no price: no cost", nil, "openai", "llama3.1", u, 0},
		{"no price for mock", nil, "mock", "", u, 0},
		{"the CLI's own cost stands", user, "claude", "", agents.Usage{InputTokens: 5, CostUSD: 0.25}, 0.25},
		{"no tokens, no cost", user, "openai", "gpt-4.1", agents.Usage{}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.ps.costed(tt.backend, tt.model, tt.in)
			if d := got.CostUSD - tt.want; d > 1e-9 || d < -1e-9 {
				t.Errorf("cost = %g, want %g", got.CostUSD, tt.want)
			}
			if got.InputTokens != tt.in.InputTokens || got.Duration != tt.in.Duration {
				t.Errorf("usage changed beyond its cost: %+v", got)
			}
		})
	}
}

// TestProfileBudgets: a profile's budgets apply unless git config or a
// flag gives them; a profile change offered later leaves those alone.
func TestProfileBudgets(t *testing.T) {
	tests := []struct {
		name       string
		profile    string
		flags      map[string]bool
		git        map[string]string
		wantCost   float64
		wantTokens int64
	}{
		{"standard has none", "", nil, nil, 0, 0},
		{"quick", "quick", nil, nil, 1, 500000},
		{"thorough", "thorough", nil, nil, 25, 0},
		{"git config over the profile", "quick", nil, map[string]string{"maxCost": "$3", "maxTokens": "1M"}, 3, 1000000},
		{"a flag over both", "quick", map[string]bool{"max-cost": true}, map[string]string{"maxCost": "3"}, 9, 500000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Config{MaxCostUSD: 9} // as if --max-cost 9 were given
			if err := ApplyProfile(&c, tt.profile, func(f string) bool { return tt.flags[f] }, func(k string) string { return tt.git[k] }); err != nil {
				t.Fatal(err)
			}
			if c.MaxCostUSD != tt.wantCost || c.MaxTokens != tt.wantTokens {
				t.Errorf("budgets $%g, %d tokens; want $%g, %d", c.MaxCostUSD, c.MaxTokens, tt.wantCost, tt.wantTokens)
			}
			thorough, _ := ProfileNamed("thorough")
			if next := c.withProfile(thorough); tt.flags["max-cost"] && next.MaxCostUSD != 9 || tt.git["maxCost"] != "" && next.MaxCostUSD != c.MaxCostUSD {
				t.Errorf("a suggested profile changed a budget the user gave: $%g", next.MaxCostUSD)
			}
		})
	}
}

func TestBudgetFailureMessage(t *testing.T) {
	for _, tt := range []struct {
		limit     Limit
		msg, hint string
	}{
		{LimitTokens, "the token budget ran out before any topic was accepted", "--resume --max-tokens N"},
		{LimitCost, "the cost budget ran out before any topic was accepted", "--resume --max-cost N"},
	} {
		e := &ResearchFailedError{Name: "tides", Limit: tt.limit}
		if !strings.HasPrefix(e.Error(), tt.msg) || !strings.HasSuffix(e.Hint(), tt.hint) {
			t.Errorf("%s: %q / %q", tt.limit, e.Error(), e.Hint())
		}
	}
}
