package local

import (
	"fmt"
	"os"
	"slices"
	"strings"
)

// revise repairs the report in place: a citation whose quotation moved is
// pointed at its new lines, and one that cannot be repaired is removed with
// its quotation. It adds no research.
func (r *run) revise() (string, error) {
	p := r.task.Output
	if p == "" {
		p = r.b.ReviewPath
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return "", fmt.Errorf("read report: %w", err)
	}
	text := string(data)
	bad := map[int]bool{}
	for _, e := range VerifyCitations(data, r.roots()) {
		bad[e.Line] = true
	}
	if len(bad) == 0 {
		return text, nil
	}
	lines := strings.Split(text, "\n")
	cites := parseCitations(text)
	slices.Reverse(cites) // edit bottom-up so earlier line numbers hold
	for _, c := range cites {
		if !bad[c.Line] {
			continue
		}
		if start, ok := r.relocate(c); ok {
			old := fmt.Sprintf("`%s:%d-%d`", c.Path, c.Start, c.End)
			moved := fmt.Sprintf("`%s:%d-%d`", c.Path, start, start+len(c.Quote)-1)
			lines[c.Line-1] = strings.Replace(lines[c.Line-1], old, moved, 1)
			continue
		}
		end := c.Line - 1
		if c.QuoteTo >= 0 {
			end = c.QuoteTo
		}
		lines = slices.Delete(lines, c.Line-1, end+1)
	}
	return strings.Join(lines, "\n"), nil
}

// relocate finds a citation's quotation in its file, nearest the cited line.
func (r *run) relocate(c citation) (int, bool) {
	abs := resolveCite(c.Path, r.roots())
	if abs == "" || len(c.Quote) == 0 {
		return 0, false
	}
	lines := r.lines(abs)
	best, found := 0, false
	for k := 0; k+len(c.Quote) <= len(lines); k++ {
		if equalLines(c.Quote, lines[k:k+len(c.Quote)]) {
			if !found || abs1(k+1-c.Start) < abs1(best-c.Start) {
				best, found = k+1, true
			}
		}
	}
	return best, found
}

func abs1(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
