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
