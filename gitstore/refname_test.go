package gitstore

import (
	"os"
	"path/filepath"
	"testing"
)

// A ref created by another writer between refConflict's first look and its
// walk below the ref's path is the ref itself, not a ref in its way (seen
// when several rgit runs start one session at once).
func TestFirstFileIgnoresTheRefItself(t *testing.T) {
	common := t.TempDir()
	ref := filepath.Join(common, "refs", "heads", "research", "x")
	if err := os.MkdirAll(filepath.Dir(ref), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ref, []byte("0123456789012345678901234567890123456789\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := firstFile(common, ref); err != nil || got != "" {
		t.Errorf("firstFile over the ref itself = %q, %v; want none", got, err)
	}
	if got, err := firstFile(common, filepath.Dir(ref)); err != nil || got != "refs/heads/research/x" {
		t.Errorf("firstFile below research = %q, %v; want the ref", got, err)
	}
}
