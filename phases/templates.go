package phases

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/rgit-dev/rgit/phases/layout"
	"github.com/rgit-dev/rgit/prompts"
)

// sessionTemplates decides the prompts a run uses and keeps them in the
// session's own templates/ folder, which every commit records: a resume in
// another clone runs with the same prompts, and `git log -p` shows an edit
// between runs. user is the set from .research/templates/ (the defaults
// where a file is missing), already validated.
//
// Per template: a session without its copy (a new one, or one from before
// templates were recorded) takes the user's; a user's copy that was edited
// (differs from the default) and differs from the session's replaces it;
// otherwise the session keeps its own, so a clone whose templates are the
// defaults does not undo an edit made elsewhere.
func (r *run) sessionTemplates(user *prompts.Set) (*prompts.Set, error) {
	dir := r.lay.File(layout.TemplatesDir)
	for _, name := range prompts.Names {
		path := filepath.Join(dir, name)
		mine := user.Source(name)
		theirs, err := os.ReadFile(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return nil, fmt.Errorf("read session template: %w", err)
		case bytes.Equal(theirs, mine), bytes.Equal(mine, prompts.DefaultSource(name)):
			continue
		default:
			r.notice(fmt.Sprintf("template %s differs from the session's; using %s (recorded with the next commit)",
				name, filepath.Join(layout.Templates(r.lay.Root()), name)))
		}
		if err := writeFile(path, mine); err != nil {
			return nil, fmt.Errorf("record template %s: %w", name, err)
		}
	}
	set, err := prompts.Load(dir)
	if err != nil {
		return nil, &BadInputError{Msg: err.Error(),
			Hint: "fix the template on the session branch, or put a corrected copy in .research/templates/ to replace it"}
	}
	return set, nil
}
