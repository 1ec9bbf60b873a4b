package local

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// gorootDir is `go env GOROOT`, asked once.
var gorootDir = sync.OnceValue(func() string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
})

// goroot is a path inside the Go distribution; the test is skipped where
// the distribution's sources are absent.
func goroot(t testing.TB, sub ...string) string {
	t.Helper()
	p := filepath.Join(append([]string{gorootDir()}, sub...)...)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("Go distribution sources not present: %v", err)
	}
	return p
}

// TestDemoQuestion is `make demo`'s session. Since Go 1.24 the mutex's
// fairness logic lives in internal/sync, so the corpus needs both
// directories: src/sync alone only wraps it.
func TestDemoQuestion(t *testing.T) {
	corpus := []string{goroot(t, "src", "sync"), goroot(t, "src", "internal", "sync")}
	a := New(Options{CacheDir: t.TempDir()})
	s := simulate(t, a, "How does sync.Mutex avoid starving waiting goroutines?", corpus, 2, 1)
	if errs := VerifyCitations([]byte(s.report), corpus); len(errs) > 0 {
		t.Fatalf("citations: %v", errs)
	}
	summary, _, _ := strings.Cut(s.report, "\n## Method")
	// The summary states the mechanism: starvation mode, its handoff, and
	// the threshold that switches it on.
	for _, want := range []string{
		"**Answer.**",
		"In starvation mode ownership of the mutex is directly handed off from",
		"starvationThresholdNs",
		"internal/sync/mutex.go:",
	} {
		if !strings.Contains(summary, want) {
			t.Errorf("executive summary lacks %q:\n%s", want, summary)
		}
	}
	for _, want := range []string{"starvationThresholdNs = 1e6", "Starvation mode is important to prevent pathological cases of tail latency."} {
		if !strings.Contains(s.report, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if s.final.Verdict != "accept" {
		t.Errorf("final review: %+v", s.final)
	}
}
