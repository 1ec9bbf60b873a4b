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
	Jobs          int // agent calls in flight at most (--jobs); 0 = the backends' default

	PhaseTimeouts                    map[Phase]time.Duration // --timeout phase=duration values (timeouts.go)
	MaxFixAttempts, MaxTopicRestarts int                     // the two-tier retry (retries.go): 0 = default, negative = none
	Profile                          string                  // the profile the settings came from (profile.go)
	Council                          CouncilConfig
	MaxCostUSD                       float64         // --max-cost; 0 = none (budget.go)
	MaxTokens                        int64           // --max-tokens; 0 = none
	Prices                           Prices          // --prices, research.prices (budgetprice.go)
	ProfileOpen                      bool            // no profile was chosen: the planner may suggest one (profilepropose.go)
	profileFixed                     map[string]bool // settings given by flag or git config, which a profile never changes

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
	c.Topic = CleanLine(c.Topic) // the topic reaches headings, commits and terminals
	if c.Topic == "" && !c.Resume {
		return nil, badInput(`pass the topic as an argument: rgit research "topic or question"`, "missing research topic")
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
	c.Model, c.ReviewModel = orAuto(c.Model), orAuto(c.ReviewModel)
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
	if err := c.checkBudget(); err != nil {
		return nil, err
	}
	if c.Jobs < 0 {
		return nil, badInput("pass --jobs 1 or more", "invalid --jobs %d", c.Jobs)
	}
	c.explicitMax = c.MaxIterations > 0
	min := MinIterations(c.Breadth, c.Depth)
	switch {
	case c.MaxIterations == 0:
		c.MaxIterations = min
	case c.MaxIterations < 0:
		return nil, badInput("pass a positive --max-iterations", "invalid --max-iterations %d", c.MaxIterations)
	case c.MaxIterations < min && !c.Resume: // a resumed session's own breadth and depth decide (resumeSettings)
		notices = append(notices, fmt.Sprintf("--max-iterations %d is below the minimum breadth^(depth+1)+5 = %d; using %d", c.MaxIterations, min, min))
		c.MaxIterations = min
	}
	if c.MergeInto != "" && (strings.HasPrefix(c.MergeInto, "-") || strings.Contains(c.MergeInto, "..") || strings.ContainsAny(c.MergeInto, " ~^:?*[\\")) {
		return nil, badInput("name an existing local branch", "invalid --merge-into %q", c.MergeInto)
	}
	return notices, nil
}

// orAuto is an agent flag with "" (an empty RGIT_MODEL) meaning auto.
func orAuto(spec string) string {
	if strings.TrimSpace(spec) == "" {
		return "auto"
	}
	return spec
}

// NeedsConfirmation says whether the iteration limit is large enough that
// the seed asks the user to confirm before the loop begins.
func (c *Config) NeedsConfirmation() bool { return c.MaxIterations > 20 && !c.Yes }
