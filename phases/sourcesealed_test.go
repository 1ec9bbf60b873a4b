package phases

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/phases/layout"
)

// refetching reads one page on every research call, its text different
// each time, and dates every source record an hour back before it
// answers, as the minutes a real agent takes would: the store then trusts
// the records' stat, so only rgit naming the rewritten record gets its new
// text committed (layout.Sealed).
type refetching struct {
	*scripted
	workspace string
	reads     int
}

const refetchedURL = "https://example.org/tides"

func (r *refetching) Run(ctx context.Context, task agents.Task) (agents.Result, error) {
	res, err := r.scripted.Run(ctx, task)
	if err != nil {
		return res, err
	}
	if task.Phase == agents.PhaseResearch {
		r.reads++
		res.Sources = append(res.Sources, agents.Source{URL: refetchedURL, Text: fmt.Sprintf("read %d%s", r.reads, strings.Repeat("!", r.reads))})
	}
	dir := filepath.Join(r.workspace, layout.SourcesDir)
	past := time.Now().Add(-time.Hour)
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		os.Chtimes(filepath.Join(dir, e.Name()), past, past)
	}
	os.Chtimes(dir, past, past)
	return res, nil
}

// TestRefetchedRecordCommitted checks that a page read again is committed
// with the text of the read that recorded it, in that call's commit.
func TestRefetchedRecordCommitted(t *testing.T) {
	dir := testRepo(t)
	lay := layout.New(dir, "why")
	a := &refetching{scripted: &scripted{name: "fake"}, workspace: lay.Workspace()}
	if _, _, err := runWith(t, dir, Config{Topic: "Why?", Name: "why", Breadth: 3, Depth: 1, Model: "fake", ReviewModel: "fake", Jobs: 1},
		map[string]agents.Agent{"fake": a}); err != nil {
		t.Fatal(err)
	}
	if a.reads < 3 {
		t.Fatalf("%d research calls, want at least 3", a.reads)
	}
	record := lay.TreeFile(layout.SourcesDir + "/" + agents.SourceFileName(refetchedURL))
	out := gitOut(t, dir, "log", "--format=%H %s", "research/why")
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		hash, subject, _ := strings.Cut(line, " ")
		if !strings.HasPrefix(subject, "research:") {
			continue
		}
		seen++
		// Newest first: the n-th research commit from the end recorded read reads-n+1.
		want := fmt.Sprintf("read %d%s", a.reads-seen+1, strings.Repeat("!", a.reads-seen+1))
		if got := gitOut(t, dir, "show", hash+":"+record); !strings.Contains(got, want) {
			t.Errorf("%s holds\n%s\nwant the text %q", subject, got, want)
		}
	}
	if seen != a.reads {
		t.Fatalf("%d research commits, want %d", seen, a.reads)
	}
}

// synthOnlyFetch reads a page only while synthesizing; the revision cites
// it without reading it again.
type synthOnlyFetch struct{ *scripted }

func (a synthOnlyFetch) Run(ctx context.Context, task agents.Task) (agents.Result, error) {
	res, err := a.scripted.Run(ctx, task)
	if err != nil {
		return res, err
	}
	const page = "https://example.org/synthesis-only"
	switch task.Phase {
	case agents.PhaseSynthesize:
		res.Sources = append(res.Sources, agents.Source{URL: page, Text: "read while synthesizing"})
	case agents.PhaseRevise:
		res.Sources = nil
		body := "# Report\n\n## Executive Summary\nsum\n\n## Findings\nall\n\n## Sources\n1. https://example.org\n2. " + page + "\n"
		err = os.WriteFile(task.Output, []byte(body), 0o644)
	}
	return res, err
}

// TestRevisionSeesSynthesisReads checks that a page the synthesis read
// backs the revision's citation of it: the records a final phase writes
// are kept for the phases after it.
func TestRevisionSeesSynthesisReads(t *testing.T) {
	dir := testRepo(t)
	a := synthOnlyFetch{&scripted{name: "fake", rejectFinal: true}}
	if _, _, err := runWith(t, dir, Config{Topic: "Why?", Name: "why", Breadth: 1, Depth: 0, Model: "fake", ReviewModel: "fake"},
		map[string]agents.Agent{"fake": a}); err != nil {
		t.Fatal(err)
	}
	st := readState(t, dir, "research/why")
	if c := st.Citations; c == nil || c.Verified != c.Total || c.Total != 2 {
		t.Errorf("citations after the revision %+v, want 2 of 2 verified", c)
	}
}
