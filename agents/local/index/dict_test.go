package index

import (
	"fmt"
	"strings"
	"testing"
)

// termDict must give each distinct term one id, the same on every lookup,
// for terms held in a slot and terms longer than a slot holds, across the
// table's growth.
func TestTermDict(t *testing.T) {
	terms := []string{"mutex", "lock", "=sync.mutex.lockslow", strings.Repeat("a", inlineKey),
		strings.Repeat("a", inlineKey+1), strings.Repeat("a", inlineKey+2), "=internal/runtime/maps.ctrlgroup", "größe", "lock"}
	for i := range 3000 { // grows the table from its smallest size several times
		terms = append(terms, fmt.Sprintf("term%d", i), fmt.Sprintf("=a.very.long.declaration.name.%d", i))
	}
	d := newTermDict(1)
	ids := map[string]int32{}
	for round := range 2 {
		for _, s := range terms {
			id, added := d.id([]byte(s))
			want, seen := ids[s]
			switch {
			case !seen && (!added || int(id) != len(ids)):
				t.Fatalf("round %d: new term %q: id %d added %v, want id %d added", round, s, id, added, len(ids))
			case seen && (added || id != want):
				t.Fatalf("round %d: known term %q: id %d added %v, want id %d", round, s, id, added, want)
			}
			ids[s] = id
			if d.names[id] != s {
				t.Fatalf("names[%d] = %q, want %q", id, d.names[id], s)
			}
		}
	}
	if len(d.names) != len(ids) {
		t.Errorf("%d names, %d distinct terms", len(d.names), len(ids))
	}
}
