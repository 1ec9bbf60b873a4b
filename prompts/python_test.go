package prompts

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"
)

// pythonCheck runs each template through Python's string.Template with
// every valid variable set to "<name>", and reports per template one of:
// the rendered text, the invalid placeholder's line and column, or the
// unknown variable (KeyError).
const pythonCheck = `
import json, re, string, sys
valid, cases = json.load(sys.stdin)
mapping = {v: "<" + v + ">" for v in valid}
out = []
for src in cases:
    try:
        out.append({"ok": string.Template(src).substitute(mapping)})
    except KeyError as e:
        out.append({"key": e.args[0]})
    except ValueError as e:
        m = re.search(r"line (\d+), col (\d+)", str(e))
        out.append({"line": int(m.group(1)), "col": int(m.group(2))})
json.dump(out, sys.stdout)
`

type pyResult struct {
	OK        *string `json:"ok"`
	Key       string  `json:"key"`
	Line, Col int
}

// TestAgainstPython compares Validate and Render with CPython's
// string.Template on hand-picked and generated templates. It needs
// python3 on PATH.
func TestAgainstPython(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	cases := pythonCases()
	in, err := json.Marshal([]any{Variables(), cases})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, "-c", pythonCheck)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	var want []pyResult
	if err := json.Unmarshal(out, &want); err != nil || len(want) != len(cases) {
		t.Fatalf("python3 output: %v (%d results for %d cases)", err, len(want), len(cases))
	}
	vars := map[string]string{}
	for _, v := range Variables() {
		vars[v] = "<" + v + ">"
	}
	for i, src := range cases {
		segs, err := parse("t", []byte(src))
		var e *Error
		switch w := want[i]; {
		case w.OK != nil:
			set := &Set{tmpl: map[string][]segment{"t": segs}}
			got, rerr := set.Render("t", vars)
			if err != nil || rerr != nil || got != *w.OK {
				t.Errorf("%q: got %q, %v, %v; python renders %q", src, got, err, rerr, *w.OK)
			}
		case w.Key != "":
			if !errors.As(err, &e) || !strings.HasPrefix(e.Msg, "unknown variable $"+w.Key+" ") && !strings.HasPrefix(e.Msg, "unknown variable $"+w.Key+";") {
				t.Errorf("%q: got %v; python: KeyError %q", src, err, w.Key)
			}
		default:
			if !errors.As(err, &e) || e.Line != w.Line || e.Col != w.Col || strings.HasPrefix(e.Msg, "unknown") {
				t.Errorf("%q: got %v; python: invalid placeholder at line %d, col %d", src, err, w.Line, w.Col)
			}
		}
	}
}

// pythonCases is every default template, every TestValidate case that
// is valid UTF-8, and generated strings dense in "$", braces, names and
// line breaks of every kind Python's splitlines knows.
func pythonCases() []string {
	var cases []string
	for _, name := range Names {
		cases = append(cases, string(DefaultSource(name)))
	}
	cases = append(cases, "$topic", "${topic}", "$$", "$", "${", "${topic", "$1", "a\r\n\x85\u2028$")
	atoms := []string{"$", "$", "$$", "{", "}", "topic", "depth", "x", "_", "1", " ", "é", "\n", "\r", "\r\n", "\v", "\x1c", "\u2029", "Topic", "topic_slug"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var b strings.Builder
		for range 1 + r.IntN(8) {
			b.WriteString(atoms[r.IntN(len(atoms))])
		}
		cases = append(cases, b.String())
	}
	valid := cases[:0]
	for _, c := range cases {
		if utf8.ValidString(c) {
			valid = append(valid, c)
		}
	}
	return valid
}
