package plan

import (
	"strings"
	"testing"
)

func TestSlug(t *testing.T) {
	tests := []struct{ name, want string }{
		{"Machine Learning Fundamentals", "machine-learning-fundamentals"},
		{"  Leading and trailing  ", "leading-and-trailing"},
		{"C++ std::atomic & Memory Orders", "c-std-atomic-memory-orders"},
		{"Café: Ünïcode Names [Draft]", "cafe-unicode-names-draft"},
		{"../../etc/passwd", "etc-passwd"},
		{"a/b\\c", "a-b-c"},
		{"..", ""}, // no letters: hashed, checked below
		{"机器学习", ""},
		{"", ""},
		{"GPT-4o vs. Llama 3.1", "gpt-4o-vs-llama-3-1"},
		{"Straße", "strasse"},
	}
	for _, tc := range tests {
		got := Slug(tc.name)
		if tc.want != "" && got != tc.want {
			t.Errorf("Slug(%q) = %q, want %q", tc.name, got, tc.want)
		}
		if !validSlug(got) || got == "." || got == ".." || strings.ContainsAny(got, "/.") {
			t.Errorf("Slug(%q) = %q is not a safe file name", tc.name, got)
		}
		if tc.want == "" && !strings.HasPrefix(got, "topic-") {
			t.Errorf("Slug(%q) = %q, want a topic- fallback", tc.name, got)
		}
	}
	if Slug("机器学习") == Slug("深度学习") {
		t.Error("two names without ASCII letters share a slug")
	}
	long := strings.Repeat("word ", 40)
	if s := Slug(long); len(s) > maxSlug || strings.HasSuffix(s, "-") {
		t.Errorf("Slug of a long name = %q (%d bytes)", s, len(s))
	}
}

func TestSlugs(t *testing.T) {
	p := statuses("Go GC:0::pending", "Go + GC:0::pending", "go gc!:0::pending", "Other:0::pending")
	p.Breadth = 4
	tests := []struct {
		name     string
		existing map[string]string
		want     map[string]string
	}{
		{
			name: "fresh, collisions numbered in plan order",
			want: map[string]string{"Go GC": "go-gc", "Go + GC": "go-gc-2", "go gc!": "go-gc-3", "Other": "other"},
		},
		{
			name:     "existing slugs honoured, new ones avoid them",
			existing: map[string]string{"go gc!": "go-gc", "Other": "other-old"},
			want:     map[string]string{"go gc!": "go-gc", "Other": "other-old", "Go GC": "go-gc-2", "Go + GC": "go-gc-3"},
		},
		{
			name:     "renamed topic keeps its slug reserved",
			existing: map[string]string{"Old Name": "go-gc"},
			want:     map[string]string{"Old Name": "go-gc", "Go GC": "go-gc-2", "Go + GC": "go-gc-3", "go gc!": "go-gc-4", "Other": "other"},
		},
		{
			name:     "unsafe slugs from a damaged state are replaced",
			existing: map[string]string{"Go GC": "../escape", "Other": ""},
			want:     map[string]string{"Go GC": "go-gc", "Go + GC": "go-gc-2", "go gc!": "go-gc-3", "Other": "other"},
		},
		{
			name:     "two stale names claiming one slug: the first by name keeps it, every time",
			existing: map[string]string{"Zeta Old": "kept", "Alpha Old": "kept", "Beta Old": "kept"},
			want:     map[string]string{"Alpha Old": "kept", "Go GC": "go-gc", "Go + GC": "go-gc-2", "go gc!": "go-gc-3", "Other": "other"},
		},
		{
			name:     "two names claiming one slug: the earlier topic keeps it",
			existing: map[string]string{"Go GC": "shared", "Other": "shared"},
			want:     map[string]string{"Go GC": "shared", "Go + GC": "go-gc", "go gc!": "go-gc-2", "Other": "other"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Slugs(p, tc.existing)
			if len(got) != len(tc.want) {
				t.Errorf("Slugs = %v, want %v", got, tc.want)
			}
			for name, slug := range tc.want {
				if got[name] != slug {
					t.Errorf("slug of %q = %q, want %q", name, got[name], slug)
				}
			}
		})
	}
}

// Adding topics never changes the slugs already handed out.
func TestSlugsStableWhenTopicsAdded(t *testing.T) {
	p := readPlan(t, "canonical.md")
	before := Slugs(p, nil)
	p.AddSubtopics("Production Collectors", []Proposal{{Name: "Collector-Families"}, {Name: "Nursery  Sizing 2"}})
	after := Slugs(p, before)
	for name, slug := range before {
		if after[name] != slug {
			t.Errorf("slug of %q changed from %q to %q", name, slug, after[name])
		}
	}
	seen := map[string]string{}
	for name, slug := range after {
		if other, dup := seen[slug]; dup {
			t.Errorf("slug %q given to %q and %q", slug, name, other)
		}
		seen[slug] = name
	}
	if after["Collector-Families"] != "collector-families-2" {
		t.Errorf("new topic colliding with an old slug got %q", after["Collector-Families"])
	}
}
