package index

import (
	"slices"
	"testing"
)

func TestTerms(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"How does sync.Mutex avoid starving?", []string{"sync", "mutex", "avoid", "starv"}},
		{"starvation starved starving", []string{"starv"}},
		{"starvationThresholdNs", []string{"starvationthresholdn", "starv", "threshold", "ns"}},
		{"runtime_Semrelease", []string{"runtime_semreleas", "runtim", "semreleas"}},
		{"HTTPServer utf8Len", []string{"httpserv", "http", "serv", "utf8len", "utf", "len"}},
		{"the of and 1234 42", nil},
		{"waiters waiting waited", []string{"wait"}},
		{"Größe überall", []string{"größ", "überall"}},
		// Stop words written as identifiers are kept: joined by a dot,
		// called, or part of a compound; prose stop words are dropped.
		{"sync.Once guarantees f runs once", []string{"sync", "onc", "guarante", "run"}},
		{"once.Do(f) and do it", []string{"onc", "do"}},
		{"Do( is called", []string{"do", "call"}},
		{"doSlow select_case", []string{"doslow", "do", "slow", "select_cas", "select", "cas"}},
		{"if the select is over", []string{"select"}},
		{"x " + string(make([]byte, 40)) + "abcdefghijklmnopqrstuvwxyzabcdefghijklmnop", nil},
	}
	for _, tt := range tests {
		if got := Terms(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("Terms(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestStemConsistent(t *testing.T) {
	// Query and corpus forms of one idea must meet at one term.
	groups := [][]string{
		{"goroutine", "goroutines"},
		{"queue", "queues", "queued"},
		{"handoff", "handoffs"},
		{"mutex", "mutexes"},
		{"select", "selection", "selections"},
		{"execute", "execution"},
		{"express", "expression"},
	}
	for _, g := range groups {
		first := Terms(g[0])
		for _, w := range g[1:] {
			if got := Terms(w); !slices.Equal(got, first) {
				t.Errorf("Terms(%q) = %q, Terms(%q) = %q: want equal", w, got, g[0], first)
			}
		}
	}
}

func TestDeclTerms(t *testing.T) {
	tests := []struct {
		label, rel string
		want       []string
	}{
		{"Is", "errors/wrap.go", []string{"=is", "=errors.is"}},
		{"WaitGroup.Go", "src/sync/waitgroup.go", []string{"=waitgroup.go", "=sync.waitgroup.go", "=waitgroup", "=sync.waitgroup"}},
		{"main", "main.go", []string{"=main"}},
		{"", "a/b.go", nil},
		{"Two words", "a/b.md", nil},
	}
	for _, tt := range tests {
		if got := DeclTerms(tt.label, tt.rel); !slices.Equal(got, tt.want) {
			t.Errorf("DeclTerms(%q, %q) = %q, want %q", tt.label, tt.rel, got, tt.want)
		}
	}
	// A question asks for the declaration terms of the identifiers it names.
	q := Query{}.Add("How does errors.Is use sync.WaitGroup.Go and LookPath, not the word is?", 1)
	for _, want := range []string{"=errors.is", "=is", "=sync.waitgroup.go", "=waitgroup.go", "=go", "=lookpath"} {
		if q[want] != 1 {
			t.Errorf("query lacks %q: %v", want, q)
		}
	}
	// "errors.Is" names a function, so its "is" is a term; "the word is"
	// is prose and adds nothing.
	if q["is"] != 1 || q["the"] != 0 || q["how"] != 0 || q["=how"] != 0 {
		t.Errorf("query has stop words or plain words as declarations: %v", q)
	}
}
