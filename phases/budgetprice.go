package phases

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/registry/catalog"
)

// Price is what a model charges, in US dollars per million tokens.
type Price struct {
	InputPerMTok  float64 `json:"input_per_mtok"`
	OutputPerMTok float64 `json:"output_per_mtok"`
}

// Prices override the backend table's prices: keyed "backend:model" for
// one model, or "backend" for every model of a backend.
type Prices map[string]Price

// PricesHelp documents --prices and research.prices.
const PricesHelp = "`SPEC` prices for backends that report tokens but no cost, over the built-in table: backend:model=IN/OUT " +
	"(one model) or backend=IN/OUT (all its models) in US dollars per million input/output tokens, comma-separated, " +
	"such as openai:gpt-4.1=2/8,codex=1.25/10"

// ParsePrices reads "key=in/out,key=in/out". An empty string is no prices.
func ParsePrices(s string) (Prices, error) {
	out := Prices{}
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		key, val, ok := strings.Cut(item, "=")
		key = strings.ToLower(strings.TrimSpace(key))
		in, outp, ok2 := strings.Cut(val, "/")
		if !ok || !ok2 || key == "" {
			return nil, pricesError("%q is not key=input/output", item)
		}
		backend, _, _ := strings.Cut(key, ":")
		if _, known := catalog.Lookup(backend); !known {
			return nil, pricesError("unknown backend %q in %q (known: %s)", backend, item, strings.Join(catalog.Names(), ", "))
		}
		p, err := priceOf(in, outp)
		if err != nil {
			return nil, pricesError("%q: %v", item, err)
		}
		out[key] = p
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

func priceOf(in, out string) (Price, error) {
	var p Price
	for _, f := range []struct {
		s    string
		into *float64
	}{{in, &p.InputPerMTok}, {out, &p.OutputPerMTok}} {
		v, err := strconv.ParseFloat(strings.TrimPrefix(strings.TrimSpace(f.s), "$"), 64)
		if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
			return Price{}, fmt.Errorf("price %q is not a number of dollars, 0 or more", f.s)
		}
		*f.into = v
	}
	return p, nil
}

func pricesError(format string, args ...any) error {
	return badInput("write --prices as backend:model=IN/OUT,backend=IN/OUT in US dollars per million tokens, for example openai:gpt-4.1=2/8,codex=1.25/10",
		"invalid prices: "+format, args...)
}

// price is the price of backend's model: the user's for the model, the
// user's for the backend, the table's for the model (its default model
// when the call named none).
func (ps Prices) price(backend, model string) (Price, bool) {
	if p, ok := ps[strings.ToLower(backend+":"+model)]; ok && model != "" {
		return p, true
	}
	if p, ok := ps[strings.ToLower(backend)]; ok {
		return p, true
	}
	b, ok := catalog.Lookup(backend)
	if !ok {
		return Price{}, false
	}
	if model == "" {
		model = b.DefaultModel
	}
	cp, ok := b.Price(model)
	return Price(cp), ok
}

// costed gives a call that reported tokens but no cost the cost its price
// says; a call with a cost of its own (claude, opencode), no tokens or no
// known price keeps what it reported. Cached tokens are charged as input:
// backends count them differently, and this is the upper bound.
func (ps Prices) costed(backend, model string, u agents.Usage) agents.Usage {
	if u.CostUSD > 0 || u.Tokens() == 0 {
		return u
	}
	p, ok := ps.price(backend, model)
	if !ok {
		return u
	}
	u.CostUSD = (float64(u.InputTokens)*p.InputPerMTok + float64(u.OutputTokens)*p.OutputPerMTok) / 1e6
	return u
}

// String writes prices back in ParsePrices's format, keys sorted.
func (ps Prices) String() string {
	keys := make([]string, 0, len(ps))
	for k := range ps {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		p := ps[k]
		parts[i] = fmt.Sprintf("%s=%g/%g", k, p.InputPerMTok, p.OutputPerMTok)
	}
	return strings.Join(parts, ",")
}

// prices is the session's price overrides.
func (s Settings) prices() Prices {
	if s.Budget == nil {
		return nil
	}
	return s.Budget.Prices
}

// warnUnpriced tells the user, once a run has its session, which of its
// agents a cost budget cannot count: a backend that reports no cost of its
// own, with no price for the model it runs.
func (r *run) warnUnpriced() {
	if r.state == nil || r.state.Budget == nil || r.state.Budget.MaxCostUSD <= 0 {
		return
	}
	seen := map[string]bool{}
	for _, role := range []Role{RoleResearch, RoleReview} {
		for _, spec := range r.state.chain(role, r.state.Switches) {
			backend, model, _ := strings.Cut(spec, ":")
			b, ok := catalog.Lookup(backend)
			if seen[spec] || !ok || b.ReportsCost {
				continue
			}
			seen[spec] = true
			if _, priced := r.state.prices().price(backend, model); !priced {
				r.warn(fmt.Sprintf("--max-cost cannot count %s: it reports no cost and has no price; set one with --prices %s=IN/OUT (US dollars per million tokens)", spec, strings.TrimSuffix(backend+":"+model, ":")))
			}
		}
	}
}
