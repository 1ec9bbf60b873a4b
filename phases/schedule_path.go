package phases

import (
	"strings"
	"time"
)

// critPath follows the longest chain of dependent agent calls of a run,
// from their recorded durations: the wall time no --jobs can beat. A
// topic's research follows its parent's last call and its own last review;
// research that may add subtopics also follows the one before it in
// breadth-first order (the scheduler's rule); planning and the final cycle
// follow everything before them.
type critPath struct {
	ends  map[string]time.Duration // topic (lower case) -> end of its last call
	base  time.Duration            // end of the last sequential phase
	order time.Duration            // end of the last research that could add subtopics
	top   time.Duration            // the latest end of any call
	// tree is the same chain without the subtopic-order rule: parents,
	// reviews and the sequential phases only.
	tree critPathTree
}

type critPathTree struct {
	ends      map[string]time.Duration
	base, top time.Duration
}

// serial adds a phase that waits for everything before it.
func (c *critPath) serial(d time.Duration) {
	c.base = max(c.base, c.top) + d
	c.top = c.base
	c.tree.base = max(c.tree.base, c.tree.top) + d
	c.tree.top = c.tree.base
}

// topic adds a topic's finished call; ordered says it was research that
// could add subtopics.
func (c *critPath) topic(f *flight, parent string, ordered bool) {
	if c.ends == nil {
		c.ends, c.tree.ends = map[string]time.Duration{}, map[string]time.Duration{}
	}
	d := f.res.call.out.elapsed
	name := strings.ToLower(f.job.topic.Name)
	start := max(c.base, c.ends[name], c.ends[strings.ToLower(parent)])
	research := f.job.phase == PhaseResearch && ordered
	if research {
		start = max(start, c.order)
	}
	end := start + d
	c.ends[name] = end
	tend := max(c.tree.base, c.tree.ends[name], c.tree.ends[strings.ToLower(parent)]) + d
	c.tree.ends[name], c.tree.top = tend, max(c.tree.top, tend)
	if research {
		c.order = max(c.order, end)
	}
	c.top = max(c.top, end)
}

// length is the critical path so far; treeLength the same without the
// subtopic-order rule, what ignoring it could reach.
func (c *critPath) length() time.Duration { return c.top }

func (c *critPath) treeLength() time.Duration { return c.tree.top }
