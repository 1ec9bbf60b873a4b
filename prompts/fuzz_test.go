package prompts

import (
	"errors"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// pyPattern is string.Template's pattern. Go's regexp picks the leftmost
// alternative first, as Python's re does, so it is a second, independent
// implementation of the same rules.
var pyPattern = regexp.MustCompile(`\$(?:(\$)|([_a-zA-Z][_a-zA-Z0-9]*)|\{([_a-zA-Z][_a-zA-Z0-9]*)\}|())`)

// reference renders src the regexp way: the output, or the byte offset
// of the first problem.
func reference(src string, vars map[string]string) (string, int) {
	var b strings.Builder
	last := 0
	for _, m := range pyPattern.FindAllStringSubmatchIndex(src, -1) {
		b.WriteString(src[last:m[0]])
		last = m[1]
		switch {
		case m[2] >= 0:
			b.WriteByte('$')
		case m[4] >= 0 || m[6] >= 0:
			var name string
			if m[4] >= 0 {
				name = src[m[4]:m[5]]
			} else {
				name = src[m[6]:m[7]]
			}
			v, ok := vars[name]
			if !ok {
				return "", m[0]
			}
			b.WriteString(v)
		default:
			return "", m[0]
		}
	}
	b.WriteString(src[last:])
	return b.String(), -1
}

// FuzzValidate checks that parse never panics and agrees with the regexp
// reference on both the expansion and the position of the first problem.
func FuzzValidate(f *testing.F) {
	for _, name := range Names {
		f.Add(string(DefaultSource(name)))
	}
	for _, s := range []string{"$", "$$", "${topic", "${topic}x", "$1", "a\r\n$", "$topicx", "é$x"} {
		f.Add(s)
	}
	vars := map[string]string{}
	for _, v := range Variables() {
		vars[v] = "<" + v + ">"
	}
	f.Fuzz(func(t *testing.T, src string) {
		segs, err := parse("f", []byte(src))
		if !utf8.ValidString(src) {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("invalid UTF-8 accepted")
			}
			return
		}
		want, at := reference(src, vars)
		if at >= 0 {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("parse(%q) = %v, want an error at byte %d", src, err, at)
			}
			line, col := position(src, at)
			if e.Line != line || e.Col != col {
				t.Fatalf("parse(%q) error at %d:%d, want %d:%d", src, e.Line, e.Col, line, col)
			}
			return
		}
		if err != nil {
			t.Fatalf("parse(%q) = %v, want nil", src, err)
		}
		got, err := (&Set{tmpl: map[string][]segment{"f": segs}}).Render("f", vars)
		if err != nil || got != want {
			t.Fatalf("Render(%q) = %q, %v; want %q", src, got, err, want)
		}
	})
}
