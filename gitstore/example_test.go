package gitstore_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/rgit-dev/rgit/gitstore"
)

// A research session: snapshot a workspace as a commit on its own branch,
// read the history back, and merge the report into the user's branch.
func Example() {
	dir, _ := os.MkdirTemp("", "gitstore-example")
	defer os.RemoveAll(dir)
	exec.Command("git", "init", "-q", "-b", "main", dir).Run()

	s, created, err := gitstore.OpenOrInit(dir) // an existing repository: created is false
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	s.AddExclude("/.research/") // the workspace never shows in git status

	ws := filepath.Join(s.Root(), ".research", "x")
	os.MkdirAll(ws, 0o755)
	os.WriteFile(filepath.Join(ws, "state.json"), []byte("{}\n"), 0o644)
	os.WriteFile(filepath.Join(ws, "research.lock.json"), []byte("{}\n"), 0o644)
	reports := filepath.Join(s.Root(), "reports", "x")
	os.MkdirAll(reports, 0o755)
	os.WriteFile(filepath.Join(reports, "report.md"), []byte("# Report\n"), 0o644)

	ctx := context.Background()
	_, err = s.Snapshot(ctx, gitstore.SnapshotOptions{
		Branch:   "research/x",
		Mounts:   []gitstore.Mount{{Dir: ws, Tree: ".research/x"}, {Dir: reports, Tree: "reports/x"}},
		Exclude:  []string{".research/x/research.lock.json"},
		Message:  "plan: x\n\nFirst plan.",
		Trailers: []gitstore.Trailer{{Key: "Rgit-Phase", Value: "plan"}},
	})
	if err != nil {
		log.Fatal(err)
	}
	history, _ := s.Log("research/x", 0)
	files, _ := s.ListFiles("research/x", "")
	fmt.Println(created, history[0].Summary, history[0].Trailer("Rgit-Phase"), files)

	// main is unborn here, so the merge commit's only parent is the session.
	os.RemoveAll(filepath.Join(s.Root(), "reports"))
	_, err = s.Merge(ctx, gitstore.MergeOptions{Source: "research/x", Target: "main",
		Paths: []string{"reports/x/report.md"}, Message: "rgit: merge research/x"})
	report, _ := os.ReadFile(filepath.Join(s.Root(), "reports", "x", "report.md"))
	fmt.Printf("%v %q\n", err, report)
	// Output:
	// false plan: x plan [.research/x/state.json reports/x/report.md]
	// <nil> "# Report\n"
}
