package local

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func goroot(t testing.TB, sub ...string) string {
	t.Helper()
	p := filepath.Join(append([]string{runtime.GOROOT()}, sub...)...)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("Go distribution sources not present: %v", err)
	}
	return p
}

func TestDemoQuestion(t *testing.T) {
	corpus := []string{goroot(t, "src", "sync"), goroot(t, "src", "internal", "sync")}
	a := New(Options{CacheDir: t.TempDir()})
	s := simulate(t, a, "How does sync.Mutex avoid starving waiting goroutines?", corpus, 2, 1)
	os.WriteFile("/tmp/smoke/demo_report.md", []byte(s.report), 0o644)
	os.WriteFile("/tmp/smoke/demo_plan.md", []byte(s.plan), 0o644)
	for i, p := range s.progress {
		os.WriteFile(filepath.Join("/tmp/smoke", "progress"+string(rune('a'+i))+".md"), []byte(p), 0o644)
	}
	t.Logf("verdicts %+v final %+v", s.verdicts, s.final)
	if errs := VerifyCitations([]byte(s.report), corpus); len(errs) > 0 {
		t.Fatalf("citations: %v", errs)
	}
}
