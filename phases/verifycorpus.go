package phases

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/rgit-dev/rgit/phases/report"
)

// corpusCommit is the commit of the branch the session starts from: the
// corpus inside the repository is read as committed there, and `rgit
// verify` reads local citations at it. "" when there is none yet.
func (r *run) corpusCommit() string {
	branch := r.state.TargetBranch
	if branch == "" {
		branch, _ = r.store.CurrentBranch()
	}
	if branch == "" {
		return ""
	}
	h, err := r.store.Head(branch)
	if err != nil {
		return ""
	}
	return h
}

// corpusAt gives the corpus roots to verify local citations against: the
// cited files of each root inside the repository are written from the
// session's recorded commit into a temporary copy of the root (same
// trailing directory names, so citation paths resolve the same way), so
// the audit reads what was committed, never what the disk holds now. A
// root outside the repository, or a session that recorded no commit, is
// read from the disk. done removes the copy.
func (a *audit) corpusAt(roots []string, repo string, cites []report.Citation) (at []string, done func()) {
	done = func() {}
	if a.state.CorpusCommit == "" || a.store == nil {
		return roots, done
	}
	tmp, err := os.MkdirTemp("", "rgit-verify-")
	if err != nil {
		return roots, done
	}
	done = func() { _ = os.RemoveAll(tmp) }
	repoAbs, _ := filepath.Abs(repo)
	for _, r := range roots {
		abs := r
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(repoAbs, r)
		}
		rel, err := filepath.Rel(repoAbs, abs)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			at = append(at, r) // outside the repository: the disk is all there is
			continue
		}
		copyRoot := filepath.Join(tmp, filepath.Base(repoAbs), rel)
		for _, c := range cites {
			for _, p := range citedPaths(abs, c.Path) {
				tree := filepath.ToSlash(filepath.Join(rel, p))
				if data, err := a.store.ReadFile(a.state.CorpusCommit, tree); err == nil {
					dst := filepath.Join(copyRoot, filepath.FromSlash(p))
					_ = os.MkdirAll(filepath.Dir(dst), 0o755)
					_ = os.WriteFile(dst, data, 0o644)
				}
			}
		}
		_ = os.MkdirAll(copyRoot, 0o755)
		at = append(at, copyRoot)
	}
	return at, done
}

// citedPaths lists the paths under root a citation path may name, as the
// local researcher resolves it: its leading elements are the trailing
// elements of root ("sync/mutex.go" under .../src/sync is "mutex.go").
func citedPaths(root, cited string) []string {
	parts := strings.Split(cited, "/")
	for _, e := range parts {
		if e == "" || e == "." || e == ".." {
			return nil
		}
	}
	slash := filepath.ToSlash(root)
	var out []string
	for k := 1; k < len(parts); k++ {
		prefix := strings.Join(parts[:k], "/")
		if slash == prefix || strings.HasSuffix(slash, "/"+prefix) {
			out = append(out, strings.Join(parts[k:], "/"))
		}
	}
	return out
}
