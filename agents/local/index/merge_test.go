package index

import (
	"slices"
	"testing"
)

// sortedNames orders by an eight-byte prefix first: names that share it,
// are shorter than it, or differ past it must still sort as strings do.
func TestSortedNames(t *testing.T) {
	tests := [][]string{
		{},
		{"b", "a"},
		{"ab", "a", "abc", "", "abcdefgh", "abcdefg"},
		{"starvationthresholdn", "starvationmod", "starvation", "starvat", "=sync.mutex.lock", "=sync.mutex"},
		{"größe", "grosse", "groß", "zz", "über", "uber"},
		{"abcdefghij", "abcdefghi", "abcdefgh", "abcdefgha", "abcdefgh_"},
	}
	for _, names := range tests {
		got, ids := sortedNames(names)
		if want := slices.Sorted(slices.Values(names)); !slices.Equal(got, want) {
			t.Errorf("sortedNames(%q) = %q, want %q", names, got, want)
		}
		for i, id := range ids {
			if names[id] != got[i] {
				t.Errorf("sortedNames(%q): id %d names %q, not %q", names, id, names[id], got[i])
			}
		}
	}
}

// mergeDicts gives every distinct term of the workers one slot of a sorted
// list, and maps each worker's ids to it.
func TestMergeDicts(t *testing.T) {
	workers := [][]string{
		{"mutex", "lock", "starvat", "=sync.mutex"},
		{"lock", "unlock", "mutex", "a"},
		{},
	}
	var tks []*tokenizer
	for _, names := range workers {
		tk := newTokenizer(1)
		for _, n := range names {
			tk.id([]byte(n))
		}
		tks = append(tks, tk)
	}
	terms, _, maps := mergeDicts(nil, tks)
	want := []string{"=sync.mutex", "a", "lock", "mutex", "starvat", "unlock"}
	if !slices.Equal(terms, want) {
		t.Fatalf("terms %q, want %q", terms, want)
	}
	for w, names := range workers {
		for id, n := range names {
			if got := terms[maps[w][id]]; got != n {
				t.Errorf("worker %d id %d (%q) maps to %q", w, id, n, got)
			}
		}
	}
}
