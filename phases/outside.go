package phases

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rgit-dev/rgit/agents/registry/catalog"
)

// confined says whether a backend cannot write outside the workspace by
// construction: only the external CLIs run code rgit does not control, so
// the outside-writes gate is skipped for built-in and HTTP backends.
func confined(backend string) bool {
	b, ok := catalog.Lookup(backend)
	return ok && b.Kind != catalog.CLI
}

// fileSig is what the gate knows of one file: its type and permissions,
// and a SHA-256 of its content (of its target, for a symlink). A missing
// file has the zero fileSig.
type fileSig struct {
	mode fs.FileMode
	hash [sha256.Size]byte
}

// outsideFiles fingerprints every file an agent could change outside its
// workspace and that could then reach a commit: the worktree's tracked
// files and untracked ones git does not ignore (the user's own edits
// included: the gate compares contents, so an append to a file the user
// already changed is seen), plus the repository's hooks and config, which
// git runs and reads. The session's own directories are left out. ok is
// false when git cannot list the files; the gate cannot run then.
func (cr *callRunner) outsideFiles(ctx context.Context) (map[string]fileSig, bool) {
	root := cr.lay.Root()
	cmd := exec.CommandContext(ctx, "git", "-c", "core.quotePath=false", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return nil, false
	}
	paths := map[string]string{} // display path -> absolute path
	for _, rel := range bytes.Split(out, []byte{0}) {
		if len(rel) > 0 && !cr.owned(string(rel)) {
			paths[string(rel)] = filepath.Join(root, filepath.FromSlash(string(rel)))
		}
	}
	gitDir := exec.CommandContext(ctx, "git", "rev-parse", "--path-format=absolute", "--git-common-dir")
	gitDir.Dir = root
	if d, err := gitDir.Output(); err == nil {
		common := strings.TrimSpace(string(d))
		paths[".git/config"] = filepath.Join(common, "config")
		hooks, _ := os.ReadDir(filepath.Join(common, "hooks"))
		for _, h := range hooks {
			paths[".git/hooks/"+h.Name()] = filepath.Join(common, "hooks", h.Name())
		}
	}
	sigs := make(map[string]fileSig, len(paths))
	for rel, abs := range paths {
		sigs[rel] = signature(abs)
	}
	return sigs, true
}

// owned says whether a worktree path belongs to the session (or another
// session's workspace): the agent may write there.
func (cr *callRunner) owned(rel string) bool {
	for _, p := range cr.lay.Owned() {
		if strings.HasPrefix(rel, p) {
			return true
		}
	}
	return false
}

// signature reads one file; a file that cannot be read counts as missing.
func signature(path string) fileSig {
	fi, err := os.Lstat(path)
	if err != nil {
		return fileSig{}
	}
	sig := fileSig{mode: fi.Mode()}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		target, _ := os.Readlink(path)
		sig.hash = sha256.Sum256([]byte(target))
	case fi.Mode().IsRegular():
		f, err := os.Open(path)
		if err != nil {
			return fileSig{}
		}
		defer f.Close()
		h := sha256.New()
		if _, err := io.Copy(h, f); err != nil {
			return fileSig{}
		}
		copy(sig.hash[:], h.Sum(nil))
	}
	return sig
}

// outsideWrites compares two fingerprints and names every file an agent
// created, changed or deleted outside the workspace. Nothing of it is in
// the phase's commit, which holds only the session's directories; the
// error tells the user which of their files to check before they commit.
func outsideWrites(before, after map[string]fileSig) error {
	var changes []string
	for p, a := range after {
		b, seen := before[p]
		switch {
		case (!seen || b == fileSig{}) && a != fileSig{}:
			changes = append(changes, p+" (created)")
		case a == fileSig{} && seen && b != fileSig{}:
			changes = append(changes, p+" (deleted)")
		case seen && a != b:
			changes = append(changes, p+" (changed)")
		}
	}
	for p, b := range before {
		if _, ok := after[p]; !ok && b != (fileSig{}) {
			changes = append(changes, p+" (deleted)")
		}
	}
	if len(changes) == 0 {
		return nil
	}
	sort.Strings(changes)
	if len(changes) > 10 {
		changes = append(changes[:10], fmt.Sprintf("and %d more", len(changes)-10))
	}
	return fmt.Errorf("agent wrote outside the workspace: %s; check these files before you commit", strings.Join(changes, ", "))
}
