package prompts

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestInstall checks Install writes exactly the missing defaults and
// never touches a file that exists.
func TestInstall(t *testing.T) {
	tests := []struct {
		name     string
		existing map[string]string // file -> content before Install
	}{
		{"empty dir", nil},
		{"user edits kept", map[string]string{"research.md": "my own $topic prompt\n", "review.md": ""}},
		{"invalid user file kept", map[string]string{"revise.md": "broken $"}},
		{"all present", func() map[string]string {
			m := map[string]string{}
			for _, n := range Names {
				m[n] = "custom " + n
			}
			return m
		}()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), ".research", "templates")
			if len(tc.existing) > 0 {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for name, content := range tc.existing {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			written, err := Install(dir)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, name := range Names {
				if _, ok := tc.existing[name]; !ok {
					want = append(want, filepath.Join(dir, name))
				}
			}
			if !slices.Equal(written, want) {
				t.Errorf("written = %v, want %v", written, want)
			}
			for _, name := range Names {
				got, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				wantContent, own := tc.existing[name]
				if !own {
					wantContent = string(DefaultSource(name))
				}
				if string(got) != wantContent {
					t.Errorf("%s = %.40q..., want %.40q...", name, got, wantContent)
				}
			}
			again, err := Install(dir)
			if err != nil || len(again) != 0 {
				t.Errorf("second Install wrote %v, %v; want nothing", again, err)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != len(Names) {
				t.Errorf("dir holds %d entries, want %d (temporary files left?)", len(entries), len(Names))
			}
			for _, path := range written {
				if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
					t.Errorf("%s: mode %v, %v; want 0644", path, fi.Mode().Perm(), err)
				}
			}
		})
	}
}

// TestInstallRefusesFileAsDir checks Install reports a dir it cannot make.
func TestInstallRefusesFileAsDir(t *testing.T) {
	file := filepath.Join(t.TempDir(), "templates")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Install(file); err == nil {
		t.Fatal("Install into a regular file succeeded")
	}
}

// TestLoad checks Load uses user files over defaults and reports every
// bad file with its path, line and column.
func TestLoad(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string
		errs    []string // each must appear in the error, with dir prefixed
		msgs    []string // must appear in the error as they are
		changed string   // a template whose rendering must show the user's text
	}{
		{"no dir at all", nil, nil, nil, ""},
		{"user template used", map[string]string{"research.md": "Study ${topic} now."}, nil, nil, "research.md"},
		{"unknown variable", map[string]string{"review.md": "ok\nthen $verdict here"},
			[]string{"review.md:2:6: unknown variable $verdict"}, []string{"valid variables: $acceptance_criteria"}, ""},
		{"two bad files", map[string]string{"revise.md": "cost: 5$", "recovery.md": "${error"},
			[]string{"revise.md:1:8: ", "recovery.md:1:1: unterminated"}, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "templates")
			if tc.files != nil {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for name, content := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			set, err := Load(dir)
			if len(tc.errs) > 0 {
				if err == nil {
					t.Fatal("Load succeeded")
				}
				var e *Error
				if !errors.As(err, &e) || !strings.HasPrefix(e.File, dir) {
					t.Errorf("error %v is not an *Error naming a file in %s", err, dir)
				}
				for _, want := range tc.errs {
					if !strings.Contains(err.Error(), filepath.Join(dir, want)) {
						t.Errorf("error %q lacks %q", err, filepath.Join(dir, want))
					}
				}
				for _, want := range tc.msgs {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("error %q lacks %q", err, want)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range Names {
				want := DefaultSource(name)
				if name == tc.changed {
					want = []byte(tc.files[name])
				}
				if !bytes.Equal(set.Source(name), want) {
					t.Errorf("%s: source differs from expected", name)
				}
			}
			if tc.changed != "" {
				got, _ := set.Render(tc.changed, map[string]string{"topic": "T"})
				if got != "Study T now." {
					t.Errorf("Render = %q", got)
				}
			}
		})
	}
}

// TestLoadReadError checks a template path that cannot be read is an
// error, not a silent default.
func TestLoadReadError(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "research.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "research.md") {
		t.Fatalf("Load = %v, want a read error naming research.md", err)
	}
}
