package plan

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every tolerated variant describes the canonical plan, so it must render
// to exactly the canonical file.
func TestVariantsRenderCanonical(t *testing.T) {
	want, err := os.ReadFile(filepath.Join(plansDir, "canonical.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range validFiles(t) {
		if !strings.HasPrefix(f, "variants") {
			continue
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			got := Render(readPlan(t, f))
			if !bytes.Equal(got, want) {
				t.Errorf("render differs from canonical.md:\n%s", got)
			}
		})
	}
}

// parse(render(p)) == p, and render is a fixed point, for every valid file;
// the rendered file is written to disk and read back as the loop does.
func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, f := range validFiles(t) {
		t.Run(f, func(t *testing.T) {
			p := readPlan(t, f)
			path := filepath.Join(dir, filepath.Base(f))
			if err := os.WriteFile(path, Render(p), 0o644); err != nil {
				t.Fatal(err)
			}
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			q, err := Parse(path, src)
			if err != nil {
				t.Fatalf("rendered plan does not parse: %v", err)
			}
			if d := diffPlans(p, q); d != "" {
				t.Errorf("round trip: %s", d)
			}
			if again := Render(q); !bytes.Equal(again, src) {
				t.Errorf("render is not a fixed point:\n%s", again)
			}
		})
	}
}

// Each invalid kind fails with an *Error naming the file, the line of the
// item to fix, and words that say what is wrong.
func TestParseInvalid(t *testing.T) {
	tests := []struct {
		file string
		line int    // 0: the problem has no single line
		at   string // the text on that line (checked against the file)
		msg  string
	}{
		{"unknown_status.md", 17, "- Status: Finished-ish", `unknown status "Finished-ish" of topic "B"; use Pending, In Progress, In Review or Complete`},
		{"missing_parent.md", 16, "### B (Depth: 1)", `topic "B" has depth 1 but no parent`},
		{"unknown_parent.md", 18, "- Parent: Nope", `names unknown parent "Nope"`},
		{"depth_mismatch.md", 16, "### B (Depth: 2)", `parent "A" has depth 0; set it to 1`},
		{"depth_above_plan.md", 23, "### C (Depth: 2)", `deeper than the plan's Depth 1`},
		{"too_many_roots.md", 22, "### C (Depth: 0)", `depth-0 topic number 3, more than Breadth 2`},
		{"too_many_children.md", 30, "### D (Depth: 1)", `child number 3 of "A", more than Breadth 2`},
		{"duplicate_name.md", 16, "### garbage collection (Depth: 0)", `duplicate topic "garbage collection" (first at line 10)`},
		{"cycle.md", 18, "- Parent: C", `its own ancestor (B -> C -> B)`},
		{"root_with_parent.md", 18, "- Parent: A", `has depth 0 but parent "A"`},
		{"missing_topic.md", 3, "## Metadata", `missing topic; add "- Topic: <research question>"`},
		{"bad_breadth.md", 5, "- Breadth: three", `breadth "three" is not a whole number`},
		{"zero_breadth.md", 5, "- Breadth: 0", `breadth must be at least 1`},
		{"no_topics.md", 0, "", `no topics`},
		{"bad_heading_depth.md", 10, "### A (Depth: zero)", `bad depth in heading`},
		{"status_not_list_item.md", 11, "Status: Pending", `is not a list item; write it as "- Status: Pending"`},
		{"second_status.md", 15, "- Status: Complete", `second "status" item`},
		{"missing_depth.md", 10, "### A", `topic "A" has no depth`},
		{"heading_not_topic.md", 13, "### Notes for the reader", `heading "Notes for the reader" under ## Topics is not a topic`},
		{"code_block_under_topic.md", 16, "```", `put it inside a list item`},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			name := filepath.Join("invalid", tc.file)
			src, err := os.ReadFile(filepath.Join(plansDir, name))
			if err != nil {
				t.Fatal(err)
			}
			if tc.line > 0 {
				if lines := strings.Split(string(src), "\n"); lines[tc.line-1] != tc.at {
					t.Fatalf("test table is stale: line %d is %q, want %q", tc.line, lines[tc.line-1], tc.at)
				}
			}
			p, err := Parse(name, src)
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("Parse = %v, %v; want an *Error", p, err)
			}
			if p == nil {
				t.Errorf("Parse returned no plan with its error; callers salvage drafts")
			}
			if pe.File != name || pe.Line != tc.line || !strings.Contains(pe.Msg, tc.msg) {
				t.Errorf("error %q\nwant %s:%d: ...%s...", err, name, tc.line, tc.msg)
			}
			prefix := name + ":"
			if !strings.HasPrefix(err.Error(), prefix) {
				t.Errorf("error %q does not start with %q", err, prefix)
			}
		})
	}
}

// With an error, Parse still returns what it read: the loop keeps the
// depth-0 topics of an agent's draft that breaks the rules.
func TestParseSalvage(t *testing.T) {
	tests := []struct {
		file   string
		topics string // names read, in order
	}{
		{"too_many_roots.md", "A B C"},
		{"bad_heading_depth.md", ""},       // the malformed heading is skipped with its items
		{"heading_not_topic.md", "A"},      // the note heading is not made a topic
		{"second_status.md", "A"},          // the second Status is ignored
		{"missing_topic.md", "A"},          // metadata problems keep the topics
		{"code_block_under_topic.md", "A"}, // the block is skipped
		{"status_not_list_item.md", "A"},   // the paragraph is skipped
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(plansDir, "invalid", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			p, err := Parse(tc.file, src)
			if err == nil || p == nil {
				t.Fatalf("Parse = %v, %v; want a plan and an error", p, err)
			}
			var names []string
			for _, tp := range p.Topics {
				names = append(names, tp.Name)
			}
			if got := strings.Join(names, " "); got != tc.topics {
				t.Errorf("topics %q, want %q", got, tc.topics)
			}
		})
	}
}

// Topic.Line points at the topic's heading, and fields come out of the
// tolerated forms as the canonical values.
func TestParseLinesAndFields(t *testing.T) {
	for _, f := range validFiles(t) {
		t.Run(f, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(plansDir, f))
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n")
			for _, tp := range readPlan(t, f).Topics {
				if tp.Line < 1 || tp.Line > len(lines) {
					t.Fatalf("topic %q: line %d out of range", tp.Name, tp.Line)
				}
				if h := lines[tp.Line-1]; !strings.HasPrefix(h, "###") {
					t.Errorf("topic %q: line %d is %q, not its heading", tp.Name, tp.Line, h)
				}
				if !tp.Status.Valid() {
					t.Errorf("topic %q: status %q", tp.Name, tp.Status)
				}
			}
		})
	}
}

// Unknown list items survive with their nested content; non-topic sections
// and unknown metadata do not become topics.
func TestParseExtraItems(t *testing.T) {
	p := readPlan(t, "extra_items.md")
	tests := []struct {
		topic    string
		extra    []string
		desc     string
		criteria []string
	}{
		{
			topic: "Sandboxing Model",
			extra: []string{
				"Notes: check WASI preview 2 as well",
				"Sources:\n- https://webassembly.org\n- https://wasi.dev",
				"Owner: research agent",
				"Plain paragraph notes the agent left under the topic.",
			},
			desc:     "How wasm isolates plugins; see [the spec](https://webassembly.github.io/spec/).\nMemory safety comes from linear memory bounds checks.",
			criteria: []string{"Explains linear memory\n- with one diagram", "Cites the *core* spec"},
		},
		{topic: "Host Call Overhead", extra: []string{"Risk: numbers vary by runtime"}},
		{topic: "Runtimes Compared", desc: "Wasmtime, Wasmer and WAMR.", criteria: []string{"Table of startup times", "```\ncode kept verbatim\n```", "A paragraph between criteria is kept as one.", "Memory per instance"}},
	}
	if len(p.Topics) != len(tests) {
		t.Fatalf("got %d topics, want %d", len(p.Topics), len(tests))
	}
	if want := "Is **WebAssembly** a good target for `server-side` plugins?"; p.Topic != want {
		t.Errorf("Topic = %q, want the raw markdown %q", p.Topic, want)
	}
	for _, tc := range tests {
		tp := p.Find(tc.topic)
		if tp == nil {
			t.Fatalf("topic %q missing", tc.topic)
		}
		if d := diffPlans(&Plan{Topics: []*Topic{tp}}, &Plan{Topics: []*Topic{{
			Name: tp.Name, Depth: tp.Depth, Status: tp.Status, Parent: tp.Parent,
			Description: tc.desc, Criteria: tc.criteria, Extra: tc.extra,
		}}}); d != "" {
			t.Errorf("%s", d)
		}
	}
}

func TestParseStatus(t *testing.T) {
	tests := []struct {
		in   string
		want Status
		ok   bool
	}{
		{"Pending", Pending, true},
		{"in progress", InProgress, true},
		{"In-Progress", InProgress, true},
		{"IN PROGRESS", InProgress, true},
		{"in_review", InReview, true},
		{"  Complete ", Complete, true},
		{"completed", Complete, true},
		{"✅ Complete", Complete, true},
		{"In Progress (50%)", InProgress, true},
		{"Done-ish", "Done-ish", false},
		{"", "", false},
	}
	for _, tc := range tests {
		got, ok := ParseStatus(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseStatus(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
