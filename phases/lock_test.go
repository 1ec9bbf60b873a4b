package phases

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/phases/layout"
)

// lockStore opens a Store for one lock, as run.takeLock does.
func lockStore(t testing.TB, root string) Store {
	t.Helper()
	s, err := openGit(root)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestAcquireLock(t *testing.T) {
	root := testRepo(t)
	lay := layout.New(root, "s")
	clock := FixedClock(testNow)
	host, _ := os.Hostname()
	var notes []string
	note := func(s string) { notes = append(notes, s) }

	l, err := acquireLock(lockStore(t, root), lay, false, clock, note, nil)
	if err != nil {
		t.Fatal(err)
	}
	if l.info.Token != newToken(clock) || !l.info.Started.Equal(testNow) || l.info.PID != os.Getpid() {
		t.Errorf("lock %+v", l.info)
	}
	_, err = acquireLock(lockStore(t, root), lay, false, clock, note, nil)
	var le *LockedError
	if !errors.As(err, &le) || !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "locked by pid") || !strings.Contains(err.Error(), "started 0s ago") {
		t.Fatalf("second lock: %v", err)
	}
	forced, err := acquireLock(lockStore(t, root), lay, true, FixedClock(testNow.Add(time.Second)), note, nil) // another run: another token
	if err != nil || !strings.Contains(strings.Join(notes, "\n"), "(--force-resume)") {
		t.Fatalf("force: %v %q", err, notes)
	}
	l.release() // no longer ours: the forced lock stays
	if info, ok, _ := ReadLock(lay); !ok || info.Token != forced.info.Token {
		t.Error("releasing a replaced lock removed the new owner's")
	}
	forced.release()
	if _, ok, _ := ReadLock(lay); ok {
		t.Error("lock left after release")
	}

	for _, tc := range []struct {
		name string
		info LockInfo
		why  string
	}{
		{"dead pid", LockInfo{PID: 1 << 30, Host: host, Updated: testNow}, "pid 1073741824 is gone"},
		{"too old", LockInfo{PID: os.Getpid(), Host: host, Updated: testNow.Add(-61 * time.Minute)}, "not refreshed for 1h1m0s"},
	} {
		data, _ := json.Marshal(tc.info)
		if err := os.WriteFile(lay.Lock(), data, 0o644); err != nil {
			t.Fatal(err)
		}
		notes = nil
		l, err := acquireLock(lockStore(t, root), lay, false, clock, note, nil)
		if err != nil || len(notes) != 1 || !strings.Contains(notes[0], "removing stale lock") || !strings.Contains(notes[0], tc.why) {
			t.Errorf("%s: %v %q", tc.name, err, notes)
			continue
		}
		l.release()
	}
	if err := replaceFile(lay.Lock(), lay.LockTemp(), []byte("{}")); err != nil || fileExists(lay.LockTemp()) {
		t.Errorf("replaceFile: %v", err)
	}
}

// A run killed between linking its lock into place and removing the
// temporary file leaves the two as one file; the next start must not
// write through the temporary file into that lock.
func TestLockTempLeftLinked(t *testing.T) {
	root := testRepo(t)
	lay := layout.New(root, "s")
	if err := os.MkdirAll(lay.Workspace(), 0o755); err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	dead, _ := json.Marshal(LockInfo{PID: 1 << 30, Host: host, Token: "dead", Updated: testNow})
	if err := os.WriteFile(lay.Lock(), dead, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(lay.Lock(), lay.LockTemp()); err != nil {
		t.Fatal(err)
	}
	var notes []string
	l, err := acquireLock(lockStore(t, root), lay, false, FixedClock(testNow), func(s string) { notes = append(notes, s) }, nil)
	if err != nil || len(notes) != 1 || !strings.Contains(notes[0], "pid 1073741824 is gone") {
		t.Fatalf("acquire over a dead run's linked lock: %v %q", err, notes)
	}
	if info, ok, _ := ReadLock(lay); !ok || !l.owns(info) {
		t.Errorf("lock %+v is not the new run's", info)
	}
	l.release()
}
