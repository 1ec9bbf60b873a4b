package gitstore

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/go-git/go-git/v5/plumbing"
)

// branchRef turns a short branch name ("research/x") or a full ref name into
// a validated full ref name.
func branchRef(branch string) (plumbing.ReferenceName, error) {
	name := plumbing.ReferenceName(branch)
	if !strings.HasPrefix(branch, "refs/") {
		name = plumbing.NewBranchReferenceName(branch)
	}
	if branch == "" || name.Validate() != nil || strings.HasSuffix(branch, ".lock") {
		return "", fmt.Errorf("invalid branch name %q", branch)
	}
	return name, nil
}

// readRef returns the hash a ref points at, from its loose file or from
// packed-refs; ZeroHash when it does not exist. Loose refs are replaced by
// rename, so a reader never sees a half-written file.
func (s *Store) readRef(name plumbing.ReferenceName) (plumbing.Hash, error) {
	b, err := os.ReadFile(filepath.Join(s.commonDir, filepath.FromSlash(string(name))))
	if err == nil {
		line := strings.TrimSpace(string(b))
		if target, ok := strings.CutPrefix(line, "ref: "); ok {
			return s.readRef(plumbing.ReferenceName(target))
		}
		if !plumbing.IsHash(line) {
			return plumbing.ZeroHash, fmt.Errorf("read ref %s: bad content %q", name, line)
		}
		return plumbing.NewHash(line), nil
	}
	if !errors.Is(err, os.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
		return plumbing.ZeroHash, fmt.Errorf("read ref %s: %w", name, err)
	}
	packed, err := s.packedRefs()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return packed[name], nil
}

// packedRefs parses <common>/packed-refs.
func (s *Store) packedRefs() (map[plumbing.ReferenceName]plumbing.Hash, error) {
	refs := map[plumbing.ReferenceName]plumbing.Hash{}
	b, err := os.ReadFile(filepath.Join(s.commonDir, "packed-refs"))
	if errors.Is(err, os.ErrNotExist) {
		return refs, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read packed-refs: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' || line[0] == '^' {
			continue
		}
		h, n, ok := strings.Cut(line, " ")
		if ok && plumbing.IsHash(h) {
			refs[plumbing.ReferenceName(n)] = plumbing.NewHash(h)
		}
	}
	return refs, sc.Err()
}

// Head returns the commit hash a branch points at; ErrNotFound when the
// branch does not exist.
func (s *Store) Head(branch string) (string, error) {
	name, err := branchRef(branch)
	if err != nil {
		return "", err
	}
	h, err := s.readRef(name)
	if err != nil {
		return "", err
	}
	if h.IsZero() {
		return "", fmt.Errorf("branch %s: %w", branch, ErrNotFound)
	}
	return h.String(), nil
}

// Branches returns the short names of the branches under refs/heads/<prefix>
// (a plain string prefix, e.g. "research/"), sorted.
func (s *Store) Branches(prefix string) ([]string, error) {
	seen := map[string]bool{}
	packed, err := s.packedRefs()
	if err != nil {
		return nil, err
	}
	for n := range packed {
		if n.IsBranch() {
			seen[n.Short()] = true
		}
	}
	heads := filepath.Join(s.commonDir, "refs", "heads")
	err = filepath.WalkDir(heads, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.IsDir() || strings.HasSuffix(p, ".lock") {
			return nil
		}
		rel, err := filepath.Rel(heads, p)
		if err == nil {
			seen[filepath.ToSlash(rel)] = true
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("list branches: %w", err)
	}
	var out []string
	for b := range seen {
		if strings.HasPrefix(b, prefix) {
			out = append(out, b)
		}
	}
	sort.Strings(out)
	return out, nil
}

// CurrentBranch returns the short name of the branch this worktree's HEAD
// points at, also when that branch has no commit yet; "" when HEAD is detached.
func (s *Store) CurrentBranch() (string, error) {
	b, err := os.ReadFile(filepath.Join(s.gitDir, "HEAD"))
	if err != nil {
		return "", fmt.Errorf("read HEAD: %w", err)
	}
	target, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "ref: ")
	if !ok {
		return "", nil
	}
	return plumbing.ReferenceName(target).Short(), nil
}
