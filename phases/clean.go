package phases

import (
	"os"

	"github.com/rgit-dev/rgit/phases/plan"
)

// The write sites of sanitize.go: what rgit writes into files and commits
// never carries an agent's or a shared branch's control characters.

// cleanFile removes escape sequences and control characters from an
// agent's output file before anything reads it or commits it.
func cleanFile(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	if clean := CleanText(string(data)); clean != string(data) {
		return writeFile(path, []byte(clean))
	}
	return nil
}

// cleanPlan removes control characters from a plan read from a branch
// (perhaps someone else's), so its topics reach headings, prompts,
// trailers and the terminal clean.
func cleanPlan(p *plan.Plan) {
	if p == nil {
		return
	}
	for _, t := range p.Topics {
		t.Name, t.Parent, t.Description = CleanLine(t.Name), CleanLine(t.Parent), CleanText(t.Description)
		for i := range t.Criteria {
			t.Criteria[i] = CleanLine(t.Criteria[i])
		}
		for i := range t.Extra {
			t.Extra[i] = CleanLine(t.Extra[i])
		}
	}
}
