// Package local is rgit's built-in offline researcher: the "local" agent
// backend. It researches a body of local files (a codebase, a docs folder, a
// notes archive) with no model and no network, and every claim it writes is
// a verbatim quotation with a citation a reader can open.
//
// # Citations
//
// A citation is `path:start-end` in backticks, then the label of the
// passage (the declared identifier or the heading) and the words that made
// it match; the quoted lines follow in a fenced block, indented with their
// list item. From a report over the roots .../src/sync and
// .../src/internal/sync:
//
//	## Findings
//	- `internal/sync/mutex.go:31-55` mutexLocked (mentions Mutex, starvation)
//	  ```go
//	  	// Mutex fairness.
//	  	...
//	  	starvationThresholdNs = 1e6
//	  ```
//
// path is relative to the parent of a corpus root: it starts with the
// root's base name ("sync/mutex.go" for the root /usr/local/go/src/sync), or
// with more of the root's path when two roots share a base name (above,
// "src/sync" and "internal/sync"). Each
// report's Sources section names every root's full path, so a reader joins
// the two and opens the file; VerifyCitations does the same. Lines are
// 1-based and inclusive, and they are the file's own lines: an HTML file is
// quoted as its text with the tags removed, line for line.
//
// # Phases
//
// Plan and research follow the contract of package agents:
//
//   - plan: the question's own phrase is the first topic; the labels of the
//     best-matching passages give the others (at most Brief.Breadth). Each
//     topic's criteria name the question words that most of the top
//     passages share ("Quotes evidence on starving").
//   - research: the best passages for the topic, its description, its
//     criteria and (stressed) the last review's gaps, at most two per file,
//     plus one search per criterion or gap still uncovered; each quoted at
//     its best 25 lines or fewer. Knowledge Gaps lists the criteria no
//     quotation covers; Subtopics (when allowed) come from passage labels
//     no topic has yet.
//   - review: accept when every citation verifies, every criterion is
//     covered (one quotation holds half its terms' idf weight or more) and
//     the quotations span two files where the corpus has two; else reject
//     with those gaps.
//   - synthesize: an executive summary of the excerpts most relevant to the
//     question (one per file first), findings by topic hierarchy, numbered
//     and deduplicated sources. final-review verifies every citation;
//     revise points a moved quotation at its new lines or removes it.
//
// Ranking is BM25 over passages (package index), cached on disk. The
// output depends only on the corpus and the brief: the same corpus and
// question give the same bytes.
package local

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/local/index"
)

// Options configure the local researcher.
type Options struct {
	// Corpus lists the directories to research. Empty means Task.Brief.Corpus,
	// else the files git tracks (and does not ignore) under Task.Root, else
	// every file under Task.Root.
	Corpus []string
	// CacheDir keeps the on-disk index cache (the loop passes
	// <repo>/.research/.cache/local); "" means no cache.
	CacheDir string
}

// Agent is the local backend. It is built once per session: the corpus is
// walked and the on-disk index checked on its first call, and later calls
// of the session reuse that index.
type Agent struct {
	opts Options

	mu  sync.Mutex
	ix  *index.Index
	cfg string // the index's configuration, to know when it can be reused
}

// New returns a local researcher.
func New(o Options) *Agent { return &Agent{opts: o} }

// Name is "local".
func (a *Agent) Name() string { return "local" }

// Run carries out one phase; see the package doc of agents for the contract.
func (a *Agent) Run(ctx context.Context, t agents.Task) (agents.Result, error) {
	begin := time.Now()
	if err := ctx.Err(); err != nil {
		return agents.Result{}, err
	}
	ix, err := a.index(ctx, t)
	if err != nil {
		if ctx.Err() != nil {
			return agents.Result{}, ctx.Err()
		}
		return agents.Result{}, &agents.CallError{Backend: "local", Msg: err.Error()}
	}
	r := &run{ix: ix, task: t, b: t.Brief, files: map[string][]string{}}
	var out string
	switch t.Phase {
	case agents.PhasePlan:
		out = r.plan()
	case agents.PhaseMemberResearch, agents.PhaseRefine, agents.PhaseRank: // the council's (council.go)
		out, err = r.council()
	case agents.PhaseResearch:
		out, err = r.research()
	case agents.PhaseReview:
		out, err = r.review()
	case agents.PhaseSynthesize:
		if t.Brief.Council != nil {
			out, err = r.council()
			break
		}
		out = r.synthesize()
	case agents.PhaseFinalReview:
		out, err = r.finalReview()
	case agents.PhaseRevise:
		out, err = r.revise()
	case agents.PhaseRecovery:
		out = "The local researcher is deterministic and keeps no state between calls: " +
			"retry the phase as it is.\n"
	default:
		err = fmt.Errorf("run phase %q: not supported by the local researcher", t.Phase)
	}
	if err != nil {
		return agents.Result{}, &agents.CallError{Backend: "local", Kind: agents.ErrBadOutput, Msg: err.Error()}
	}
	res := agents.Result{Text: out, Usage: agents.Usage{Duration: time.Since(begin)}}
	if t.Output != "" && t.Phase != agents.PhaseRecovery {
		if err := writeFile(t.Output, out); err != nil {
			return agents.Result{}, &agents.CallError{Backend: "local", Msg: err.Error()}
		}
		if rel, err := filepath.Rel(t.Dir, t.Output); err == nil && t.Dir != "" && !strings.HasPrefix(rel, "..") {
			res.Files = []string{filepath.ToSlash(rel)}
		}
	}
	return res, nil
}

// index returns an up-to-date index of the task's corpus.
func (a *Agent) index(ctx context.Context, t agents.Task) (*index.Index, error) {
	cfg := index.Config{Dirs: a.opts.Corpus, CacheDir: a.opts.CacheDir}
	if len(cfg.Dirs) == 0 {
		cfg.Dirs = t.Brief.Corpus
	}
	if len(cfg.Dirs) == 0 {
		if t.Root == "" {
			return nil, errors.New("choose a corpus: no corpus directory and no repository root")
		}
		cfg.Dirs = []string{t.Root}
	}
	if t.Root != "" {
		// rgit's own workspace and reports are output, not sources, even
		// when the corpus holds the repository.
		cfg.Skip = []string{filepath.Join(t.Root, ".research"), filepath.Join(t.Root, "reports")}
	}
	key := fmt.Sprint(slices.Sorted(slices.Values(cfg.Dirs)), cfg.Skip, cfg.CacheDir)
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ix != nil && a.cfg == key {
		// One walk per session: the agent lives as long as the session,
		// and a file that changes under it is caught where it is quoted
		// (makeFinding, VerifyCitations, revise).
		return a.ix, nil
	}
	ix, _, err := index.Open(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("index corpus: %w", err)
	}
	a.ix, a.cfg = ix, key
	return ix, nil
}

// writeFile writes an output file, creating its directory.
func writeFile(name, content string) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return fmt.Errorf("create output dir: %w", err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	return nil
}

// run is the state of one phase call.
type run struct {
	ix    *index.Index
	task  agents.Task
	b     agents.Brief
	files map[string][]string // absolute path -> lines, read once per call
}

// roots are the corpus root directories, for citations.
func (r *run) roots() []string {
	out := make([]string, len(r.ix.Roots))
	for i, root := range r.ix.Roots {
		out[i] = root.Dir
	}
	return out
}

// lines returns a file's lines as the index reads them.
func (r *run) lines(abs string) []string {
	if l, ok := r.files[abs]; ok {
		return l
	}
	l := readLines(abs)
	r.files[abs] = l
	return l
}

// rootsNote is the sentence naming each root's full path, for Sources.
func (r *run) rootsNote() string {
	var parts []string
	for _, root := range r.ix.Roots {
		parts = append(parts, fmt.Sprintf("`%s/` is `%s`", root.Label, root.Dir))
	}
	return "Corpus roots (a citation's path starts with the root's label): " + strings.Join(parts, "; ") + "."
}
