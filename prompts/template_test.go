package prompts

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestValidate checks Validate against what Python's string.Template does
// with the same text: substitute() succeeds, raises KeyError (an unknown
// variable) or raises "Invalid placeholder in string: line L, col C".
func TestValidate(t *testing.T) {
	tests := []struct {
		name      string
		src       string
		line, col int    // 0 when valid
		msg       string // substring of the message
	}{
		{"plain", "no placeholders at all\n", 0, 0, ""},
		{"named", "Research $topic now.", 0, 0, ""},
		{"braced", "${topic}s and ${topic_slug}.md", 0, 0, ""},
		{"escaped", "costs $$5 and $$$topic", 0, 0, ""},
		{"escaped at end", "a literal $$", 0, 0, ""},
		{"name ends at punctuation", "$topic: $output_file.", 0, 0, ""},
		{"empty", "", 0, 0, ""},
		{"unknown named", "line one\n  see $topics here", 2, 7, "unknown variable $topics"},
		{"unknown braced", "x ${nope} y", 1, 3, "unknown variable $nope"},
		{"unknown lists valid", "$nope", 1, 1, "valid variables: $acceptance_criteria, $aggregate_ranking, $ancestors,"},
		{"case matters", "$Topic", 1, 1, "did you mean $topic?"},
		{"needs braces", "$topicfoo", 1, 1, "did you mean ${topic}foo?"},
		{"typo", "$ouput_file", 1, 1, "did you mean $output_file?"},
		{"dollar at end", "price in $", 1, 10, `"$" at end of template`},
		{"dollar digit", "$1 a day", 1, 1, `"$" followed by '1'`},
		{"dollar space", "a $ b", 1, 3, `followed by ' '`},
		{"unterminated brace", "ok\n${topic", 2, 1, `unterminated "${"`},
		{"empty brace", "${}", 1, 1, `bad variable name ""`},
		{"spaced brace", "${ topic }", 1, 1, `bad variable name " topic "`},
		{"digit brace", "${1x}", 1, 1, `bad variable name "1x"`},
		{"column counts characters", "héllo wörld $x", 1, 13, "unknown variable $x"},
		{"crlf is one break", "a\r\nb\r\n $", 3, 2, "at end"},
		{"lone cr breaks", "a\rb$", 2, 2, "at end"},
		{"form feed breaks", "a\fb $", 2, 3, "at end"},
		{"first problem wins", "$nope and $", 1, 1, "unknown variable $nope"},
		{"syntax before unknown", "$ and $nope", 1, 1, "followed by ' '"},
		{"invalid utf8", "ok\nab\xff", 2, 3, "invalid UTF-8"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := Validate("t.md", []byte(tc.src))
			if tc.line == 0 {
				if err != nil {
					t.Fatalf("Validate = %v, want nil", err)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Validate = %v, want *Error", err)
			}
			if e.File != "t.md" || e.Line != tc.line || e.Col != tc.col {
				t.Errorf("at %s:%d:%d, want t.md:%d:%d", e.File, e.Line, e.Col, tc.line, tc.col)
			}
			if !strings.Contains(e.Msg, tc.msg) {
				t.Errorf("message %q lacks %q", e.Msg, tc.msg)
			}
			if want := fmt.Sprintf("t.md:%d:%d: ", tc.line, tc.col); !strings.HasPrefix(err.Error(), want) {
				t.Errorf("Error() = %q, want prefix %q", err.Error(), want)
			}
		})
	}
}

// TestRender checks expansion: variables, "$$", missing values and
// rejected calls.
func TestRender(t *testing.T) {
	set := &Set{tmpl: map[string][]segment{}, src: map[string][]byte{}}
	for name, src := range map[string]string{
		"a.md": "Topic $topic (${depth}), $$5, [$review_gaps]\n",
		"b.md": "",
		"c.md": "$topic$topic",
	} {
		if err := set.add(name, []byte(src)); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name, tmpl string
		vars       map[string]string
		want, err  string
	}{
		{"all set", "a.md", map[string]string{"topic": "X", "depth": "3", "review_gaps": "- g"}, "Topic X (3), $5, [- g]\n", ""},
		{"missing render empty", "a.md", nil, "Topic  (), $5, []\n", ""},
		{"values are not expanded", "a.md", map[string]string{"topic": "$depth $$"}, "Topic $depth $$ (), $5, []\n", ""},
		{"empty template", "b.md", map[string]string{"topic": "X"}, "", ""},
		{"adjacent", "c.md", map[string]string{"topic": "ab"}, "abab", ""},
		{"unknown template", "nope.md", nil, "", `unknown template`},
		{"unknown variable", "a.md", map[string]string{"topik": "X"}, "", `unknown variable "topik"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := set.Render(tc.tmpl, tc.vars)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("Render error = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("Render = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// TestVariables checks the list is sorted, complete and a copy.
func TestVariables(t *testing.T) {
	vs := Variables()
	if len(vs) != len(variables) {
		t.Fatalf("Variables has %d names, want %d", len(vs), len(variables))
	}
	for i, v := range vs {
		if i > 0 && vs[i-1] >= v {
			t.Errorf("not sorted at %q", v)
		}
		if Describe(v) == "" {
			t.Errorf("%s has no description", v)
		}
		if idLen(v) != len(v) {
			t.Errorf("%s is not an identifier", v)
		}
	}
	vs[0] = "changed"
	if Variables()[0] == "changed" {
		t.Error("Variables returns shared storage")
	}
}
