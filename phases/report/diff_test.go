package report

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/rgit-dev/rgit/phases/plan"
)

// Two mock sessions on one question, breadth 2 and breadth 3.
func TestCompareGolden(t *testing.T) {
	d := Compare(loadSession(t, "tides-a"), loadSession(t, "tides-b"))
	var b bytes.Buffer
	if err := d.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	golden(t, "diff/tides-a.tides-b.txt", b.Bytes())
	js, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "diff/tides-a.tides-b.json", append(js, '\n'))
}

// A session compared with itself differs in nothing.
func TestCompareSelf(t *testing.T) {
	s := loadSession(t, "sync-local")
	d := Compare(s, s)
	if len(d.Topics.Added)+len(d.Topics.Removed)+len(d.Topics.Changed) > 0 || d.Topics.Unchanged != len(s.Plan.Topics) {
		t.Errorf("topics: %+v", d.Topics)
	}
	if len(d.Sources.OnlyA)+len(d.Sources.OnlyB) > 0 || len(d.Sources.Both) != 7 {
		t.Errorf("sources: %d both, %d only a, %d only b", len(d.Sources.Both), len(d.Sources.OnlyA), len(d.Sources.OnlyB))
	}
	for _, sec := range d.Sections {
		if sec.Status != SectionUnchanged {
			t.Errorf("section %v: %s", sec.Path, sec.Status)
		}
	}
}

func TestCompareSmall(t *testing.T) {
	pa := &plan.Plan{Topics: []*plan.Topic{{Name: "Kept", Status: plan.Complete}, {Name: "Moved on", Status: plan.InProgress}, {Name: "Dropped", Status: plan.Pending}}}
	pb := &plan.Plan{Topics: []*plan.Topic{{Name: "Kept", Status: plan.Complete}, {Name: "Moved on", Status: plan.Complete}, {Name: "New", Status: plan.Pending, Parent: "Kept", Depth: 1}}}
	a := &Session{Plan: pa, Report: []byte("# R\n\n## Kept\n\nx [1] and https://ex.org/a.\n\n## Dropped\n\nold\n\n## Sources\n\n1. https://ex.org/s\n")}
	b := &Session{Plan: pb, Report: []byte("# R\n\n## Kept\n\nx [2] and https://ex.org/b.\n\n## New\n\nnew\n\n## Sources\n\n1. https://ex.org/other\n2. https://ex.org/s\n")}
	d := Compare(a, b)
	names := func(cs []TopicChange) (out []string) {
		for _, c := range cs {
			out = append(out, c.Name+":"+c.StatusA+">"+c.StatusB)
		}
		return out
	}
	if got := names(d.Topics.Added); !slices.Equal(got, []string{"New:>Pending"}) {
		t.Errorf("added %v", got)
	}
	if got := names(d.Topics.Removed); !slices.Equal(got, []string{"Dropped:Pending>"}) {
		t.Errorf("removed %v", got)
	}
	if got := names(d.Topics.Changed); !slices.Equal(got, []string{"Moved on:In Progress>Complete"}) {
		t.Errorf("changed %v", got)
	}
	// The same source under another number is the same source.
	kept := d.Sources.Topics[0]
	if kept.Topic != "Kept" || !slices.Equal(kept.Both, []string{"https://ex.org/s"}) ||
		!slices.Equal(kept.OnlyA, []string{"https://ex.org/a"}) || !slices.Equal(kept.OnlyB, []string{"https://ex.org/b"}) {
		t.Errorf("topic sources %+v", kept)
	}
	var got []string
	for _, s := range d.Sections {
		got = append(got, strings.Join(s.Path, ">")+":"+s.Status)
	}
	want := []string{"R:unchanged", "R>Kept:changed", "R>Dropped:only_a", "R>New:only_b", "R>Sources:changed"}
	if !slices.Equal(got, want) {
		t.Errorf("sections %v, want %v", got, want)
	}
}

func TestUnifiedHunks(t *testing.T) {
	lines := func(s string) []string {
		if s == "" {
			return nil
		}
		return strings.Split(s, ",")
	}
	tests := []struct {
		name, a, b string
		want       []string // "@@ -fa,la +fb,lb @@ lines..."
	}{
		{"equal", "a,b,c", "a,b,c", nil},
		{"one change in the middle", "1,2,3,4,5,6,7,8,9", "1,2,3,4,X,6,7,8,9",
			[]string{"@@ -2,7 +2,7 @@  2, 3, 4,-5,+X, 6, 7, 8"}},
		{"added at the end", "a,b", "a,b,c", []string{"@@ -1,2 +1,3 @@  a, b,+c"}},
		{"removed all", "a,b", "", []string{"@@ -1,2 +1,0 @@ -a,-b"}},
		{"far apart: two hunks", "1,2,3,4,5,6,7,8,9,10,11,12", "X,2,3,4,5,6,7,8,9,10,11,Y",
			[]string{"@@ -1,4 +1,4 @@ -1,+X, 2, 3, 4", "@@ -9,4 +9,4 @@  9, 10, 11,-12,+Y"}},
		{"near: one hunk", "1,2,3,4,5,6,7,8", "X,2,3,4,5,6,7,Y",
			[]string{"@@ -1,8 +1,8 @@ -1,+X, 2, 3, 4, 5, 6, 7,-8,+Y"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hunks, _, _ := unifiedHunks(lines(tt.a), lines(tt.b), 1, 1)
			var got []string
			for _, h := range hunks {
				got = append(got, strings.TrimSpace(
					strings.Join(append([]string{"@@ -" + itoa(h.FromA) + "," + itoa(h.LinesA) + " +" + itoa(h.FromB) + "," + itoa(h.LinesB) + " @@"}, h.Lines...), ",")))
			}
			for i := range got {
				got[i] = strings.Replace(got[i], " @@,", " @@ ", 1)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestSplitSections(t *testing.T) {
	md := "intro\n\n# T\n\nbody\n\nSetext\n------\n\ntext\n\n## Dup\n\none\n\n## Dup\n\ntwo\n"
	var got []string
	for _, s := range splitSections([]byte(md)) {
		got = append(got, s.Key+"@"+itoa(s.Line)+":"+strings.Join(s.Lines, "|"))
	}
	want := []string{"@1:intro|", "T@4:|body|", "T > Setext@9:|text|", "T > Dup@13:|one|", "T > Dup (2)@17:|two"}
	if !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// BenchmarkCompare diffs the two mock sessions (breadth 2 and 3): plans,
// sources, 15 sections and usage.
func BenchmarkCompare(b *testing.B) {
	x, y := loadSession(b, "tides-a"), loadSession(b, "tides-b")
	for b.Loop() {
		_ = Compare(x, y)
	}
}

// BenchmarkEditScript is the line diff alone on two whole reports, the
// worst case of one section.
func BenchmarkEditScript(b *testing.B) {
	x := strings.Split(string(loadSession(b, "tides-a").Report), "\n")
	y := strings.Split(string(loadSession(b, "tides-b").Report), "\n")
	for b.Loop() {
		_ = editScript(x, y)
	}
}
