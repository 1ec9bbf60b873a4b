package gitstore

import (
	"path/filepath"
	"strings"
	"time"
)

// walk is what writeDir needs to know of one snapshot.
type walk struct {
	exclude []string        // path.Match patterns with wildcards, of tree paths never committed
	literal map[string]bool // the exclude patterns without wildcards, which match only themselves
	sealed  []string        // directories whose files only their writer changes (SnapshotOptions.Sealed)
	wrote   map[string]bool // files that writer changed since the last snapshot, and their directories
	now     time.Time       // when the snapshot started, for the racy-file window
}

// newWalk prepares the options once for every entry of the walk: a
// session's excludes are literal paths, and matching each of hundreds of
// entries against each of them with path.Match was a visible part of a
// commit's time.
func newWalk(exclude, sealed, wrote []string, now time.Time) walk {
	w := walk{literal: map[string]bool{}, sealed: sealed, wrote: map[string]bool{}, now: now}
	for _, p := range exclude {
		if strings.ContainsAny(p, `*?[\`) {
			w.exclude = append(w.exclude, p)
		} else {
			w.literal[p] = true
		}
	}
	for _, p := range wrote {
		if abs, err := filepath.Abs(p); err == nil {
			w.wrote[abs], w.wrote[filepath.Dir(abs)] = true, true
		}
	}
	return w
}

// excludes reports whether a tree path is never committed.
func (w walk) excludes(treePath string) bool {
	return w.literal[treePath] || excluded(treePath, w.exclude)
}
