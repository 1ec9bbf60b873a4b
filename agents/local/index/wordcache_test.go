package index

import (
	"slices"
	"strings"
	"testing"
)

// The word cache must count exactly what Tokens emits: the same terms, as
// often, for repeated words, for a stop word written as prose and then as
// an identifier (and back), and for words with more parts than an entry
// holds.
func TestWordCacheMatchesTokens(t *testing.T) {
	texts := []string{
		"once upon a time once.Do(f) ran once",
		"sync.Once guarantees once; do it, then Do(it) and do.",
		"starvationThresholdNs starvationThresholdNs starvation mode",
		"aVeryLongIdentifierWithManyParts_andMore_x1 aVeryLongIdentifierWithManyParts_andMore_x1",
		"the selection selects; Selected selections select",
		"Größe überall Größe",
		strings.Repeat("x", maxTokenLen+1) + " short",
	}
	tk := newTokenizer(1)
	for round := range 2 { // the second round is served from the cache
		for _, s := range texts {
			tk.gen++
			tk.cur, tk.n = tk.cur[:0], 0
			tk.text(s, true)
			var got []string
			for _, e := range tk.cur {
				for range e & 0xff {
					got = append(got, tk.dict.names[e>>8])
				}
			}
			var want []string
			Tokens(s, nil, func(b []byte) { want = append(want, string(b)) })
			if int(tk.n) != len(want) {
				t.Errorf("round %d: %q: counted %d tokens, Tokens emits %d", round, s, tk.n, len(want))
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("round %d: %q: cached terms %q, Tokens %q", round, s, got, want)
			}
		}
	}
}
