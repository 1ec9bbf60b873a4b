package gitstore

// FastForwardRemote moves an existing local branch to the fetched head of
// the one remote that has it, when that head contains the local one (the
// branch is behind), so work another clone pushed further is taken rather
// than done again. It returns the remote's name; "" when the branch is
// missing, up to date, ahead or diverged, all of which it leaves alone;
// ErrNotFound when no remote has the branch.
func (s *Store) FastForwardRemote(branch string) (string, error) {
	name, err := branchRef(branch)
	if err != nil {
		return "", err
	}
	cur, err := s.readRef(name)
	if err != nil || cur.IsZero() {
		return "", err
	}
	remote, h, err := s.remoteBranch(name)
	if err != nil || h == cur {
		return "", err
	}
	if _, behind, err := s.mergeBase(h, cur); err != nil || !behind {
		return "", err
	}
	return s.takeRemote(name, remote, h, cur, "fast-forward: to")
}
