package phases

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/phases/layout"
)

// sessionRepo is a repository with one finished session "why" made on the
// fixed clock.
func sessionRepo(t *testing.T) string {
	t.Helper()
	dir := testRepo(t)
	var events []Event
	if _, err := Research(context.Background(), withDir(Config{Topic: "Why?", Breadth: 2, Depth: 0, Model: "fake", ReviewModel: "fake"}, dir),
		fakeDeps(&scripted{name: "fake"}, &events)); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestInspector(t *testing.T) {
	dir := sessionRepo(t)
	in := Inspector{Dir: dir, Clock: FixedClock(testNow)}
	list, err := in.List()
	if err != nil || len(list) != 1 || list[0].Name != "why" || list[0].Stage != StageComplete || list[0].Counts.Total != 2 || list[0].Recent != nil {
		t.Fatalf("List = %+v, %v", list, err)
	}
	st, err := in.Status("why")
	if err != nil {
		t.Fatal(err)
	}
	if st.Phase != PhaseComplete || !st.Complete || len(st.Recent) != 5 || !st.Updated.Equal(testNow) || st.Lock != nil ||
		!strings.Contains(st.Tree, "Root 1") || st.Usage["fake"].Calls != 7 {
		t.Errorf("Status = %+v", st)
	}
	rows, err := in.Log("why")
	if err != nil {
		t.Fatal(err)
	}
	var phases []string
	for i := len(rows) - 1; i >= 0; i-- {
		phases = append(phases, string(rows[i].Phase)+"/"+string(rows[i].Verdict))
	}
	want := "start/ plan/ research/ review/accepted research/ review/accepted synthesize/ final-review/accepted complete/"
	if strings.Join(phases, " ") != want {
		t.Errorf("Log phases\n%s\nwant\n%s", strings.Join(phases, " "), want)
	}

	// A session branch without a readable state is listed as unreadable.
	gitIn(t, dir, "branch", "research/broken", "main")
	if list, _ := in.List(); len(list) != 2 || list[0].Name != "broken" || list[0].Stage != StageUnreadable {
		t.Errorf("List with a broken session = %+v", list)
	}
}

func TestInspectorErrors(t *testing.T) {
	dir := sessionRepo(t)
	in := Inspector{Dir: dir}
	_, err := in.Status("Bad Name")
	assertBad(t, err, "invalid session name")
	_, err = in.Status("nothing")
	assertBad(t, err, `no session named "nothing"`)
	_, err = in.Log("nothing")
	assertBad(t, err, `no session named "nothing"`)
	_, err = in.Log("../x")
	assertBad(t, err, "invalid session name")
	_, err = Inspector{Dir: t.TempDir()}.List()
	assertBad(t, err, "not a git repository")

	// A phase commit with a word rgit does not know is an error naming it.
	tree := gitIn(t, dir, "rev-parse", "research/why^{tree}")
	cmd := exec.Command("git", "-C", dir, "commit-tree", tree, "-p", "research/why", "-m", "odd\n\nRgit-Phase: dance\nRgit-Run: x")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	hash := strings.TrimSpace(string(out))
	gitIn(t, dir, "update-ref", "refs/heads/research/why", hash)
	_, err = in.Log("why")
	assertBad(t, err, `commit `+hash[:8]+`: unknown Rgit-Phase "dance"`)
	cmd = exec.Command("git", "-C", dir, "commit-tree", tree, "-p", "research/why", "-m", "odd\n\nRgit-Phase: review\nRgit-Verdict: meh")
	out, _ = cmd.Output()
	gitIn(t, dir, "update-ref", "refs/heads/research/why", strings.TrimSpace(string(out)))
	_, err = in.Log("why")
	assertBad(t, err, `unknown Rgit-Verdict "meh"`)
}

func TestCancelRefusals(t *testing.T) {
	dir := sessionRepo(t)
	in := Inspector{Dir: dir, Clock: FixedClock(testNow)}
	_, err := in.Cancel("why")
	assertBad(t, err, `session "why" is not running`)
	host, _ := os.Hostname()
	lay := layout.New(dir, "why")
	writeLock := func(info LockInfo) {
		data, _ := json.Marshal(info)
		if err := os.WriteFile(lay.Lock(), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeLock(LockInfo{PID: 1 << 30, Host: host, Updated: testNow})
	_, err = in.Cancel("why")
	assertBad(t, err, "is gone")
	writeLock(LockInfo{PID: os.Getpid(), Host: host, Updated: testNow.Add(-2 * time.Hour)})
	_, err = in.Cancel("why")
	assertBad(t, err, "not refreshed for 2h0m0s")
	writeLock(LockInfo{PID: 7, Host: "elsewhere", Updated: testNow})
	if _, err = in.Cancel("why"); err == nil || !strings.Contains(err.Error(), "runs on elsewhere (pid 7); cancel it there") {
		t.Errorf("other host: %v", err)
	}
	_, err = in.Cancel("no/such")
	assertBad(t, err, "invalid session name")
}

// --reorganize-archive writes the history's intermediate files as plain
// files, grouped by run and commit, and never commits them.
func TestReorganizeArchive(t *testing.T) {
	dir := sessionRepo(t)
	var events []Event
	cfg := resumeCfg("why")
	cfg.Reorganize, cfg.NoMerge = true, true
	if _, err := Research(context.Background(), withDir(cfg, dir), fakeDeps(&scripted{name: "fake"}, &events)); err != nil {
		t.Fatal(err)
	}
	token := newToken(FixedClock(testNow))
	for _, f := range []string{"0004-research/root-1.progress.md", "0005-review/review.accepted.md", "0003-plan/research_plan.md", "0002-start/state.json"} {
		if !fileExists(filepath.Join(dir, ".research", "why", "archive", token, filepath.FromSlash(f))) {
			t.Errorf("archive lacks %s", f)
		}
	}
	if strings.Contains(gitIn(t, dir, "ls-tree", "-r", "--name-only", "research/why"), "archive") {
		t.Error("the archive was committed")
	}
	found := false
	for _, e := range events {
		found = found || strings.Contains(e.Message, "archived files to .research/why/archive/")
	}
	if !found {
		t.Error("no notice about the archive")
	}
}
