package phases

import (
	"errors"
	"fmt"

	"github.com/rgit-dev/rgit/gitstore"
	"github.com/rgit-dev/rgit/phases/layout"
)

// openSession opens the repository to read session name and returns the
// store (the caller closes it) and the session branch's head. A session
// that exists only on one remote, as in a fresh clone, gets its local
// branch from there first, as a resume would: status, log, show and
// verify all find the same sessions. A name no branch has is bad input.
func (in Inspector) openSession(name string) (Store, string, error) {
	if err := ValidateName(name); err != nil {
		return nil, "", err
	}
	s, err := in.open()
	if err != nil {
		return nil, "", err
	}
	head, err := sessionHead(s, name)
	if err != nil {
		s.Close()
		return nil, "", err
	}
	return s, head, nil
}

func sessionHead(s Store, name string) (string, error) {
	branch := layout.Branch(name)
	head, err := s.Head(branch)
	if !errors.Is(err, gitstore.ErrNotFound) {
		return head, err
	}
	if _, err := s.TrackRemote(branch); errors.Is(err, gitstore.ErrNotFound) {
		return "", noSession(name)
	} else if err != nil {
		return "", fmt.Errorf("track remote session: %w", err)
	}
	return s.Head(branch)
}
