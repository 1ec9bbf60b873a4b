package report

import (
	"bytes"
	"testing"
)

func TestUnlink(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"numbered", "Tides rise [[1](https://a.example/x)].\n", "Tides rise [1].\n"},
		{"group", "Both [[2](https://b.example/), [5](../../src/a.go)] agree.\n", "Both [2, 5] agree.\n"},
		{"group with a plain number", "See [[2](https://b.example/); 7].\n", "See [2; 7].\n"},
		{"local", "Here [`src/a.go:3-9`](../../src/a.go#L3-L9) says so.\n", "Here `src/a.go:3-9` says so.\n"},
		{"own links stay", "Read [the paper](https://p.example/) and [3](https://q.example/).\n", "Read [the paper](https://p.example/) and [3](https://q.example/).\n"},
		{"code stays", "```md\n[[1](https://a.example/)]\n```\n[[1](https://a.example/)]\n", "```md\n[[1](https://a.example/)]\n```\n[1]\n"},
		{"tilde fence", "~~~~\n[`a:1-2`](x)\n~~~~\n", "~~~~\n[`a:1-2`](x)\n~~~~\n"},
		{"nothing linked", "Plain [1] and `a.go:1-2`.\n\n```\n[1]\n", "Plain [1] and `a.go:1-2`.\n\n```\n[1]\n"},
		{"no final newline", "A [[1](https://a.example/)]", "A [1]"},
		{"unclosed fence keeps the rest", "[[2](x)]\n```\n[[1](x)]", "[2]\n```\n[[1](x)]"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		if got := string(Unlink([]byte(tt.in))); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

// RenderMarkdown's output unlinks to the report it was given, and links
// again to itself: rgit can link the report it merges and read it back.
func TestUnlinkRoundTrip(t *testing.T) {
	for _, name := range []string{"kitchen", "tides-a", "sync-local"} {
		s := loadSession(t, name)
		s.FileLink = func(p string) string { return "../../" + p }
		var linked bytes.Buffer
		if err := RenderMarkdown(&linked, s); err != nil {
			t.Fatal(err)
		}
		back := Unlink(linked.Bytes())
		got, want := Parse(back).Citations, Parse(s.Report).Citations
		if len(got) != len(want) {
			t.Fatalf("%s: %d citations after unlinking, %d before", name, len(got), len(want))
		}
		for i := range want {
			if got[i].Kind != want[i].Kind || got[i].Key() != want[i].Key() {
				t.Errorf("%s: citation %d is %s %q after unlinking, %s %q before", name, i, got[i].Kind, got[i].Key(), want[i].Kind, want[i].Key())
			}
		}
		again := *s
		again.Report = back
		var relinked bytes.Buffer
		if err := RenderMarkdown(&relinked, &again); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(relinked.Bytes(), linked.Bytes()) {
			t.Errorf("%s: linking the unlinked report differs", name)
		}
	}
}
