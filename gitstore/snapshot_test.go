package gitstore

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tree describes a directory: slash path -> content; a trailing "/" marks a
// directory, "->target" a symlink, a leading "x:" an executable file.
type tree map[string]string

// build creates t under dir.
func (t tree) build(tb testing.TB, dir string) {
	tb.Helper()
	for p, c := range t {
		full := filepath.Join(dir, filepath.FromSlash(strings.TrimSuffix(p, "/")))
		switch {
		case strings.HasSuffix(p, "/"):
			if err := os.MkdirAll(full, 0o755); err != nil {
				tb.Fatal(err)
			}
		case strings.HasPrefix(c, "->"):
			os.MkdirAll(filepath.Dir(full), 0o755)
			if err := os.Symlink(c[2:], full); err != nil {
				tb.Fatal(err)
			}
		case strings.HasPrefix(c, "x:"):
			writeFile(tb, full, c[2:])
			os.Chmod(full, 0o755)
		default:
			writeFile(tb, full, c)
		}
	}
}

// readTreeDir describes what is on disk under dir in the notation of tree.
func readTreeDir(tb testing.TB, dir string) tree {
	tb.Helper()
	got := tree{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			got[rel] = "->" + target
			return err
		case d.IsDir():
			if entries, _ := os.ReadDir(p); len(entries) == 0 {
				got[rel+"/"] = ""
			}
			return nil
		}
		b, err := os.ReadFile(p)
		fi, _ := d.Info()
		if fi.Mode()&0o111 != 0 {
			got[rel] = "x:" + string(b)
		} else {
			got[rel] = string(b)
		}
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	return got
}

func TestSnapshotRestoreRoundTrip(t *testing.T) {
	big := make([]byte, 10<<20)
	rand.Read(big)
	cases := []struct {
		name string
		ws   tree
	}{
		{"plain", tree{"state.json": "{}\n", "progress/a.md": "# a\n"}},
		{"unicode and spaces", tree{"notes ü/résumé file.md": "x\n", "日本語.txt": "テキスト\n", " lead space": "y"}},
		{"empty dirs", tree{"sources/": "", "deep/er/": "", "f": "1"}},
		{"binary", tree{"bin.dat": "\x00\x01\xff\xfe\x00 binary\r\n"}},
		{"ten megabytes", tree{"big.bin": string(big)}},
		{"exec and symlinks", tree{"run.sh": "x:#!/bin/sh\n", "link": "->state.json", "state.json": "{}", "up": "->../outside"}},
		{"empty workspace", tree{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			repo := newRepo(t)
			s := open(t, repo)
			ws := filepath.Join(repo, ".research", "x")
			os.MkdirAll(ws, 0o755)
			tc.ws.build(t, ws)
			writeFile(t, filepath.Join(ws, "research.lock.json"), "lock")
			mounts := []Mount{{Dir: ws, Tree: ".research/x"}}
			exclude := []string{".research/x/research.lock.json"}
			h, err := s.Snapshot(context.Background(), SnapshotOptions{Branch: "research/x", Mounts: mounts, Exclude: exclude, Message: "snap"})
			if err != nil {
				t.Fatal(err)
			}
			fsck(t, repo)
			if got := strings.TrimSpace(git(t, repo, "rev-parse", "research/x")); got != h {
				t.Fatalf("git sees research/x at %s, Snapshot returned %s", got, h)
			}
			if ls := git(t, repo, "ls-tree", "-r", "--name-only", h); strings.Contains(ls, "research.lock.json") {
				t.Fatalf("excluded lock file committed:\n%s", ls)
			}

			// Restore on a fresh "machine": another clone of the objects, new dir.
			dst := filepath.Join(t.TempDir(), "ws")
			writeFile(t, filepath.Join(dst, "research.lock.json"), "other lock")
			writeFile(t, filepath.Join(dst, "stale.md"), "to be removed")
			if err := open(t, repo).Restore("research/x", []Mount{{Dir: dst, Tree: ".research/x"}}, exclude); err != nil {
				t.Fatal(err)
			}
			want := readTreeDir(t, ws)
			want["research.lock.json"] = "other lock"
			got := readTreeDir(t, dst)
			if len(got) != len(want) {
				t.Errorf("restored %d entries, want %d: %v", len(got), len(want), keys(got))
			}
			for p, w := range want {
				if got[p] != w {
					t.Errorf("%s: restored %.40q, want %.40q", p, got[p], w)
				}
			}
		})
	}
}

// keys lists a tree's paths for messages.
func keys(t tree) []string { return sortedKeys(t) }

func TestSnapshotNoEmptyCommit(t *testing.T) {
	repo := newRepo(t)
	s := open(t, repo)
	ws := filepath.Join(repo, "ws")
	writeFile(t, filepath.Join(ws, "a"), "1")
	o := SnapshotOptions{Branch: "research/x", Mounts: []Mount{{Dir: ws, Tree: ".research/x"}}}
	first, err := s.Snapshot(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	again, err := s.Snapshot(context.Background(), o)
	if !errors.Is(err, ErrNothingToCommit) || again != first {
		t.Fatalf("unchanged snapshot = %s, %v; want %s, ErrNothingToCommit", again, err, first)
	}
	o.AllowEmpty = true
	empty, err := s.Snapshot(context.Background(), o)
	if err != nil || empty == first {
		t.Fatalf("AllowEmpty snapshot = %s, %v; want a new commit", empty, err)
	}
	if n := strings.TrimSpace(git(t, repo, "rev-list", "--count", "research/x")); n != "2" {
		t.Fatalf("branch has %s commits, want 2", n)
	}
}

func TestSnapshotMounts(t *testing.T) {
	repo := newRepo(t)
	s := open(t, repo)
	base := strings.TrimSpace(git(t, repo, "rev-parse", "main"))
	ws, rep := filepath.Join(repo, ".research", "x"), filepath.Join(repo, "reports", "x")
	writeFile(t, filepath.Join(ws, "state.json"), "{}")
	writeFile(t, filepath.Join(rep, "report.md"), "# r\n")
	mounts := []Mount{{Dir: ws, Tree: ".research/x"}, {Dir: rep, Tree: "reports/x"}}
	ctx := context.Background()
	if _, err := s.Snapshot(ctx, SnapshotOptions{Branch: "research/x", Base: base, Mounts: mounts, Message: "one"}); err != nil {
		t.Fatal(err)
	}
	if got := git(t, repo, "ls-tree", "-r", "--name-only", "research/x"); got != ".research/x/state.json\nREADME.md\nreports/x/report.md\n" {
		t.Fatalf("tree after first snapshot:\n%s", got)
	}
	if got := git(t, repo, "rev-parse", "research/x^"); strings.TrimSpace(got) != base {
		t.Fatalf("parent %s, want base %s", got, base)
	}
	// The workspace is gone: its subtree (and the emptied .research) go too.
	os.RemoveAll(ws)
	if _, err := s.Snapshot(ctx, SnapshotOptions{Branch: "research/x", Base: base, Mounts: mounts, Message: "two"}); err != nil {
		t.Fatal(err)
	}
	if got := git(t, repo, "ls-tree", "-r", "--name-only", "research/x"); got != "README.md\nreports/x/report.md\n" {
		t.Fatalf("tree after removing the workspace:\n%s", got)
	}
	fsck(t, repo)
}

func TestSnapshotTrailers(t *testing.T) {
	repo := newRepo(t)
	s := open(t, repo)
	ws := filepath.Join(repo, "ws")
	writeFile(t, filepath.Join(ws, "a"), "1")
	trailers := []Trailer{{"Rgit-Phase", "research"}, {"Rgit-Topic", "Two\nlines"}, {"Rgit-Tokens", "1200"}, {"Rgit-Phase", "review"}}
	h, err := s.Snapshot(context.Background(), SnapshotOptions{
		Branch: "research/x", Mounts: []Mount{{Dir: ws, Tree: "w"}},
		Message: "research: topic A\n\nBody line one.\n\nBody para two.", Trailers: trailers,
	})
	if err != nil {
		t.Fatal(err)
	}
	msg := git(t, repo, "log", "-1", "--format=%B", h)
	cmd := "Rgit-Phase: research\nRgit-Topic: Two lines\nRgit-Tokens: 1200\nRgit-Phase: review\n"
	if got, _ := gitParseTrailers(repo, msg); got != cmd {
		t.Fatalf("git interpret-trailers --parse:\n%s\nwant:\n%s", got, cmd)
	}
	log, err := s.Log("research/x", 0)
	if err != nil || len(log) != 1 {
		t.Fatalf("Log = %v, %v", log, err)
	}
	c := log[0]
	if c.Summary != "research: topic A" || c.Body != "Body line one.\n\nBody para two." || len(c.Trailers) != 4 {
		t.Fatalf("parsed commit %+v", c)
	}
	if c.Trailer("rgit-phase") != "review" || c.Trailer("Rgit-Tokens") != "1200" || c.Trailer("Missing") != "" {
		t.Fatalf("Trailer lookups wrong: %+v", c.Trailers)
	}
	if _, err := s.Snapshot(context.Background(), SnapshotOptions{Branch: "research/x", Trailers: []Trailer{{"Bad Key", "v"}}, AllowEmpty: true}); err == nil {
		t.Fatal("a trailer key with a space was accepted")
	}
}

// gitParseTrailers runs `git interpret-trailers --parse` on msg.
func gitParseTrailers(dir, msg string) (string, error) {
	cmd := gitCmd(dir, "interpret-trailers", "--parse")
	cmd.Stdin = strings.NewReader(msg)
	var out bytes.Buffer
	cmd.Stdout = &out
	err := cmd.Run()
	return out.String(), err
}

func TestSnapshotCancelled(t *testing.T) {
	repo := newRepo(t)
	s := open(t, repo)
	ws := filepath.Join(repo, "ws")
	writeFile(t, filepath.Join(ws, "a"), "1")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := s.Snapshot(ctx, SnapshotOptions{Branch: "research/x", Mounts: []Mount{{Dir: ws, Tree: "w"}}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Snapshot with a cancelled context: %v", err)
	}
	if _, err := s.Head("research/x"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a cancelled snapshot created the branch: %v", err)
	}
}

func TestSnapshotReflog(t *testing.T) {
	repo := newRepo(t)
	s := open(t, repo)
	ws := filepath.Join(repo, "ws")
	for i, content := range []string{"1", "2"} {
		writeFile(t, filepath.Join(ws, "a"), content)
		if _, err := s.Snapshot(context.Background(), SnapshotOptions{Branch: "research/x", Mounts: []Mount{{Dir: ws, Tree: "w"}}, Message: "step " + content}); err != nil {
			t.Fatal(i, err)
		}
	}
	got := git(t, repo, "reflog", "show", "--format=%gs", "research/x")
	if got != "rgit: step 2\nrgit: step 1\n" {
		t.Fatalf("git reflog:\n%s", got)
	}
	fsck(t, repo)
}
