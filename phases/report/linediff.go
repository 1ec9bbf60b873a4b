package report

import (
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// Hunk is one piece of a unified diff: lines of A from FromA (1-based
// report line; LinesA of them) against lines of B, each line prefixed by
// " " (both), "-" (only A) or "+" (only B).
type Hunk struct {
	FromA  int      `json:"from_a"`
	LinesA int      `json:"lines_a"`
	FromB  int      `json:"from_b"`
	LinesB int      `json:"lines_b"`
	Lines  []string `json:"lines"`
}

// contextLines is how many unchanged lines a hunk shows around a change,
// as in `diff -u`.
const contextLines = 3

// op is one line of an edit script.
type op struct {
	kind byte // ' ', '-', '+'
	text string
}

// editScript is a line-level edit script from a to b. It uses the Myers
// diff of diffmatchpatch (already in rgit's build, through go-git) in its
// line mode: each distinct line becomes one rune, so the diff runs over
// lines, then the runes go back to lines.
func editScript(a, b []string) []op {
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0 // exact, never a time-dependent answer
	ra, rb, table := dmp.DiffLinesToRunes(joinLines(a), joinLines(b))
	diffs := dmp.DiffCharsToLines(dmp.DiffMainRunes(ra, rb, false), table)
	var out []op
	for _, d := range diffs {
		kind := byte(' ')
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			kind = '-'
		case diffmatchpatch.DiffInsert:
			kind = '+'
		}
		for _, l := range strings.SplitAfter(d.Text, "\n") {
			if l != "" {
				out = append(out, op{kind, strings.TrimSuffix(l, "\n")})
			}
		}
	}
	return out
}

// joinLines joins lines each ending in a newline, so that the last line
// compares equal to a line in the middle.
func joinLines(ls []string) string {
	if len(ls) == 0 {
		return ""
	}
	return strings.Join(ls, "\n") + "\n"
}

// unifiedHunks diffs a against b; fromA and fromB are the report lines of
// a[0] and b[0]. Hunks closer than twice the context merge, like diff -u.
func unifiedHunks(a, b []string, fromA, fromB int) (hunks []Hunk, added, removed int) {
	ops := editScript(a, b)
	// Line numbers before each op.
	la, lb := make([]int, len(ops)+1), make([]int, len(ops)+1)
	la[0], lb[0] = fromA, fromB
	for i, o := range ops {
		la[i+1], lb[i+1] = la[i], lb[i]
		if o.kind != '+' {
			la[i+1]++
		}
		if o.kind != '-' {
			lb[i+1]++
		}
		switch o.kind {
		case '+':
			added++
		case '-':
			removed++
		}
	}
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := max(i-contextLines, 0)
		end := i // one past the last change in the hunk
		for j := i; j < len(ops) && j <= end+2*contextLines; j++ {
			if ops[j].kind != ' ' {
				end = j + 1
			}
		}
		stop := min(end+contextLines, len(ops))
		h := Hunk{FromA: la[start], FromB: lb[start]}
		for _, o := range ops[start:stop] {
			h.Lines = append(h.Lines, string(o.kind)+o.text)
			if o.kind != '+' {
				h.LinesA++
			}
			if o.kind != '-' {
				h.LinesB++
			}
		}
		hunks = append(hunks, h)
		i = stop
	}
	return hunks, added, removed
}
