package gitstore

import (
	"path"
	"path/filepath"
	"strings"
	"time"
)

// walk is what writeDir needs to know of one snapshot.
type walk struct {
	exclude pathSet         // tree paths never committed
	sealed  pathSet         // directories whose files only their writer changes (SnapshotOptions.Sealed)
	wrote   map[string]bool // files that writer changed since the last snapshot, and their directories
	now     time.Time       // when the snapshot started, for the racy-file window
}

// newWalk prepares the options once for every entry of the walk.
func newWalk(exclude, sealed, wrote []string, now time.Time) walk {
	w := walk{exclude: newPathSet(exclude), sealed: newPathSet(sealed), wrote: map[string]bool{}, now: now}
	for _, p := range wrote {
		if abs, err := filepath.Abs(p); err == nil {
			w.wrote[abs], w.wrote[filepath.Dir(abs)] = true, true
		}
	}
	return w
}

// pathSet is a list of path.Match patterns over tree paths. A session's
// are literal paths, kept in a map: matching each of hundreds of entries
// against each of them with path.Match was a visible part of a commit's
// time.
type pathSet struct {
	literal map[string]bool // patterns without wildcards, which match only themselves
	glob    []string        // the others
}

func newPathSet(patterns []string) pathSet {
	p := pathSet{literal: map[string]bool{}}
	for _, pat := range patterns {
		if strings.ContainsAny(pat, `*?[\`) {
			p.glob = append(p.glob, pat)
		} else {
			p.literal[pat] = true
		}
	}
	return p
}

// match reports whether a tree path matches one of the patterns.
func (p pathSet) match(treePath string) bool {
	if p.literal[treePath] {
		return true
	}
	for _, pat := range p.glob {
		if ok, _ := path.Match(pat, treePath); ok {
			return true
		}
	}
	return false
}

// excludes reports whether a tree path is never committed or restored: it
// matches, or it is a nested repository.
func (p pathSet) excludes(treePath string) bool { return dotGit(treePath) || p.match(treePath) }

// dotGit reports whether a tree path names a nested repository (.git), which
// git refuses in trees.
func dotGit(treePath string) bool { return strings.EqualFold(path.Base(treePath), ".git") }
