package phases

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"

	"github.com/rgit-dev/rgit/phases/plan"
)

// Config is everything `rgit research` was asked to do. cmd builds it from
// flags; Validate checks it before anything is written.
type Config struct {
	Dir           string // where rgit was started; the repository is found from here
	Topic         string // the research topic or question
	Name          string // session name; "" = a slug of Topic
	Breadth       int
	Depth         int
	MaxIterations int    // 0 = the minimum, breadth^(depth+1)+5
	Model         string // backend:model for research phases
	ReviewModel   string // backend:model for review phases
	Fallback      []string
	Timeout       time.Duration // per agent call
	TimeBudget    time.Duration // whole-session wall clock; 0 = none
	Resume        bool
	ForceResume   bool
	MockMode      bool
	Reorganize    bool   // --reorganize-archive
	MergeInto     string // target branch; "" = the branch HEAD points at
	NoMerge       bool
	Yes           bool // confirmed a large iteration limit
	Corpus        []string
	MaxPerTopic   int // cap research passes per topic (--test); 0 = none
	Council       CouncilConfig

	explicitMax bool // --max-iterations was given, so it may raise a resumed session's limit
}

// namePattern is what a session name may look like: it becomes a branch and
// a directory, so it can never escape .research/.
var namePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,63}$`)

// ValidateName checks a session name.
func ValidateName(name string) error {
	if !namePattern.MatchString(name) || strings.Contains(name, "..") || strings.HasSuffix(name, ".lock") || strings.HasSuffix(name, ".") {
		return badInput("use 1-64 characters: lowercase letters, digits, '.', '_' or '-', starting with a letter or digit",
			"invalid session name %q", name)
	}
	return nil
}

// DefaultName derives a session name from a topic.
func DefaultName(topic string) string {
	s := plan.Slug(topic)
	if len(s) > 64 {
		s = strings.TrimRight(s[:64], "-.")
	}
	return s
}

// MinIterations is the seed's minimum safe limit, breadth^(depth+1)+5,
// saturating instead of overflowing for absurd trees.
func MinIterations(breadth, depth int) int {
	n := math.Pow(float64(breadth), float64(depth+1)) + 5
	if n > 1e9 {
		return 1e9
	}
	return int(n)
}

// Normalize fills defaults and checks every field; it returns notices for
// the user (such as a raised iteration limit).
func (c *Config) Normalize() (notices []string, err error) {
	c.Topic = strings.TrimSpace(c.Topic)
	if c.Topic == "" && !c.Resume {
		return nil, badInput(`pass the topic as an argument: rgit research "topic or question"`, "missing research topic")
	}
	if strings.ContainsAny(c.Topic, "\x00") {
		return nil, badInput("remove control characters from the topic", "topic contains a NUL byte")
	}
	if c.Name == "" && c.Topic == "" {
		return nil, badInput("pass --name of the session to resume (see 'rgit list')", "--resume needs --name or a topic")
	}
	if c.Name == "" {
		c.Name = DefaultName(c.Topic)
		if c.Name == "" {
			return nil, badInput("pass --name with letters or digits", "cannot derive a session name from topic %q", c.Topic)
		}
	}
	if err := ValidateName(c.Name); err != nil {
		return nil, err
	}
	if c.Breadth < 1 {
		return nil, badInput("pass --breadth 1 or more", "invalid --breadth %d: must be at least 1", c.Breadth)
	}
	if c.Depth < 0 {
		return nil, badInput("pass --depth 0 or more", "invalid --depth %d: must be at least 0", c.Depth)
	}
	if c.Breadth > 50 || c.Depth > 10 {
		return nil, badInput("use --breadth up to 50 and --depth up to 10", "tree of breadth %d depth %d is too large", c.Breadth, c.Depth)
	}
	if c.Timeout < 0 || c.TimeBudget < 0 {
		return nil, badInput("pass a positive number of seconds or minutes", "negative --timeout or --time")
	}
	c.explicitMax = c.MaxIterations > 0
	min := MinIterations(c.Breadth, c.Depth)
	switch {
	case c.MaxIterations == 0:
		c.MaxIterations = min
	case c.MaxIterations < 0:
		return nil, badInput("pass a positive --max-iterations", "invalid --max-iterations %d", c.MaxIterations)
	case c.MaxIterations < min:
		notices = append(notices, fmt.Sprintf("--max-iterations %d is below the minimum breadth^(depth+1)+5 = %d; using %d", c.MaxIterations, min, min))
		c.MaxIterations = min
	}
	if c.MergeInto != "" && (strings.HasPrefix(c.MergeInto, "-") || strings.Contains(c.MergeInto, "..") || strings.ContainsAny(c.MergeInto, " ~^:?*[\\")) {
		return nil, badInput("name an existing local branch", "invalid --merge-into %q", c.MergeInto)
	}
	return notices, nil
}

// NeedsConfirmation says whether the iteration limit is large enough that
// the seed asks the user to confirm before the loop begins.
func (c *Config) NeedsConfirmation() bool { return c.MaxIterations > 20 && !c.Yes }
