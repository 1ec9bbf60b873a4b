package local

import "testing"

func TestSubject(t *testing.T) {
	tests := []struct {
		text, want string
		ok         bool
	}{
		{"The happens before relation is defined as the transitive closure.", "The happens before relation", true},
		{"Once is an object that will perform exactly one action.", "Once", true},
		{"Pipes and FIFOs are unidirectional.", "Pipes and FIFOs", true},
		{"The term means what it says.", "The term", true},
		// Naming the thing in passing is not defining it.
		{"In the terminology of the Go memory model, Unlock synchronizes before Lock.", "", false},
		// A verb far into the sentence follows a clause, not a subject.
		{"If one or more of the communications can proceed, a single one that can proceed is chosen.", "", false},
		{"No verb here.", "", false},
	}
	for _, tt := range tests {
		got, ok := subject(tt.text)
		if got != tt.want || ok != tt.ok {
			t.Errorf("subject(%q) = %q, %v; want %q, %v", tt.text, got, ok, tt.want, tt.ok)
		}
	}
}
