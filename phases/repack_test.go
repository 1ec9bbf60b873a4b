package phases

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/mock"
)

// looseStore reports a chosen number of loose objects (-1: the real count).
type looseStore struct {
	Store
	loose int
}

func (l *looseStore) LooseObjects() (int, error) {
	if l.loose >= 0 {
		return l.loose, nil
	}
	return l.Store.LooseObjects()
}

// A session's end repacks only when loose objects are many: a small
// session's few hundred stay loose (seconds saved, nothing at risk), a
// repository past repackLoose is packed.
func TestRepackOnlyWhenManyLoose(t *testing.T) {
	for _, tc := range []struct {
		name   string
		loose  int
		packed bool
	}{
		{"small session stays loose", -1, false},
		{"many loose objects are packed", repackLoose, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := testRepo(t)
			ls := &looseStore{loose: tc.loose}
			deps := Deps{
				NewAgent: func(string) (agents.Agent, error) { return mock.New(mock.Options{}), nil },
				OpenStore: func(d string) (Store, error) {
					s, err := openGit(d)
					ls.Store = s
					return ls, err
				},
			}
			cfg := Config{Dir: dir, Topic: "Why is the sky blue?", Breadth: 1, Depth: 0, Model: "mock", ReviewModel: "mock", MockMode: true, Yes: true}
			if sum, err := Research(context.Background(), cfg, deps); err != nil || !sum.Finished {
				t.Fatalf("session: %+v, %v", sum, err)
			}
			out, err := exec.Command("git", "-C", dir, "count-objects", "-v").Output()
			if err != nil {
				t.Fatal(err)
			}
			allPacked := strings.Contains(string(out), "\ncount: 0\n") || strings.HasPrefix(string(out), "count: 0\n")
			if allPacked != tc.packed {
				t.Errorf("all objects packed = %v, want %v:\n%s", allPacked, tc.packed, out)
			}
			if fsck, err := exec.Command("git", "-C", dir, "fsck", "--strict").CombinedOutput(); err != nil {
				t.Errorf("git fsck --strict: %v\n%s", err, fsck)
			}
		})
	}
}
