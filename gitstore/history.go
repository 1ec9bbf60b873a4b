package gitstore

import (
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Commit is one commit of a branch's history with its message taken apart.
type Commit struct {
	Hash     string
	Parents  []string
	Summary  string    // first line of the message
	Body     string    // the rest, trailers removed
	Trailers []Trailer // in message order
	When     time.Time // author time
	Author   string    // "Name <email>"
}

// Trailer returns the last value given for key (compared case-insensitively,
// as git does), or "" when there is none.
func (c Commit) Trailer(key string) string {
	v := ""
	for _, t := range c.Trailers {
		if strings.EqualFold(t.Key, key) {
			v = t.Value
		}
	}
	return v
}

// Log returns a branch's commits, newest first, following first parents only;
// limit <= 0 means all.
func (s *Store) Log(branch string, limit int) ([]Commit, error) {
	h, err := s.resolve(branch)
	if err != nil {
		return nil, err
	}
	var out []Commit
	for !h.IsZero() && (limit <= 0 || len(out) < limit) {
		c, err := s.readCommit(h)
		if err != nil {
			return nil, err
		}
		summary, body, trailers := parseMessage(c.Message)
		parents := make([]string, len(c.ParentHashes))
		for i, p := range c.ParentHashes {
			parents[i] = p.String()
		}
		out = append(out, Commit{
			Hash: h.String(), Parents: parents, Summary: summary, Body: body, Trailers: trailers,
			When: c.Author.When, Author: fmt.Sprintf("%s <%s>", c.Author.Name, c.Author.Email),
		})
		h = plumbing.ZeroHash
		if len(c.ParentHashes) > 0 {
			h = c.ParentHashes[0]
		}
	}
	return out, nil
}

// ReadFile returns the content of the file at a slash path at rev (a short
// branch name, a full ref name or a commit hash); ErrNotFound when either
// does not exist.
func (s *Store) ReadFile(rev, p string) ([]byte, error) {
	h, err := s.resolve(rev)
	if err != nil {
		return nil, err
	}
	root, err := s.commitTree(h)
	if err != nil {
		return nil, err
	}
	e, ok, err := s.entryAt(root, strings.Trim(p, "/"))
	if err != nil {
		return nil, err
	}
	if !ok || !e.Mode.IsFile() {
		return nil, fmt.Errorf("read %s at %s: %w", p, rev, ErrNotFound)
	}
	return s.readBlob(e.Hash)
}

// readBlob returns a blob's content.
func (s *Store) readBlob(h plumbing.Hash) ([]byte, error) {
	o, err := s.st.EncodedObject(plumbing.BlobObject, h)
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", h, err)
	}
	r, err := o.Reader()
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", h, err)
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", h, err)
	}
	return b, nil
}

// ListFiles returns the paths of all files (blobs and symlinks) under the
// slash directory dir at rev, sorted; "" lists the whole tree. A missing dir
// gives an empty list.
func (s *Store) ListFiles(rev, dir string) ([]string, error) {
	h, err := s.resolve(rev)
	if err != nil {
		return nil, err
	}
	root, err := s.commitTree(h)
	if err != nil {
		return nil, err
	}
	dir = strings.Trim(dir, "/")
	e, ok, err := s.entryAt(root, dir)
	if err != nil || !ok || e.Mode != filemode.Dir {
		return nil, err
	}
	var out []string
	err = s.walkTree(e.Hash, dir, func(p string, _ filemode.FileMode, _ plumbing.Hash) error {
		out = append(out, p)
		return nil
	})
	sort.Strings(out)
	return out, err
}

// walkTree calls fn for every non-tree entry below tree h, with its slash
// path prefixed by prefix.
func (s *Store) walkTree(h plumbing.Hash, prefix string, fn func(p string, m filemode.FileMode, h plumbing.Hash) error) error {
	t, err := s.readTree(h)
	if err != nil {
		return err
	}
	for _, e := range t.Entries {
		p := path.Join(prefix, e.Name)
		if e.Mode == filemode.Dir {
			err = s.walkTree(e.Hash, p, fn)
		} else {
			err = fn(p, e.Mode, e.Hash)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// resolve turns a short branch name, a full ref name or a full commit hash
// into a commit hash; ErrNotFound when nothing matches.
func (s *Store) resolve(rev string) (plumbing.Hash, error) {
	if plumbing.IsHash(rev) {
		h := plumbing.NewHash(rev)
		if _, err := s.commitTree(h); err != nil {
			return h, fmt.Errorf("revision %s: %w", rev, ErrNotFound)
		}
		return h, nil
	}
	candidates := []string{rev}
	if !strings.HasPrefix(rev, "refs/") {
		candidates = []string{"refs/heads/" + rev, "refs/" + rev, "refs/tags/" + rev, "refs/remotes/" + rev}
	}
	for _, c := range candidates {
		name := plumbing.ReferenceName(c)
		if name.Validate() != nil {
			continue
		}
		h, err := s.readRef(name)
		if err != nil {
			return h, err
		}
		if !h.IsZero() {
			return s.peel(h)
		}
	}
	return plumbing.ZeroHash, fmt.Errorf("revision %s: %w", rev, ErrNotFound)
}

// peel follows annotated tags to the commit they name.
func (s *Store) peel(h plumbing.Hash) (plumbing.Hash, error) {
	for range 10 {
		o, err := s.st.EncodedObject(plumbing.AnyObject, h)
		if err != nil {
			return h, fmt.Errorf("read object %s: %w", h, err)
		}
		if o.Type() != plumbing.TagObject {
			return h, nil
		}
		tag, err := object.GetTag(s.st, h)
		if err != nil {
			return h, fmt.Errorf("read tag %s: %w", h, err)
		}
		h = tag.Target
	}
	return h, errors.New("peel tag: too deep")
}

// optionalCommit resolves rev, with "" meaning no commit.
func (s *Store) optionalCommit(rev string) (plumbing.Hash, error) {
	if rev == "" {
		return plumbing.ZeroHash, nil
	}
	return s.resolve(rev)
}
