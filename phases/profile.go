package phases

import (
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/rgit-dev/rgit/gitstore"
)

// Profile is one word for a session's size (seed 001's pipeline profiles,
// made for research): breadth, depth, the two retry tiers and a default
// time budget.
type Profile struct {
	Name             string
	Breadth, Depth   int
	MaxFixAttempts   int
	MaxTopicRestarts int
	TimeMinutes      float64 // --time; 0 = none
	MaxCostUSD       float64 // --max-cost; 0 = none
	MaxTokens        int64   // --max-tokens; 0 = none
	When             string
}

// Profiles are the built-in profiles; standard is rgit's defaults.
var Profiles = []Profile{
	{Name: "quick", Breadth: 2, Depth: 1, MaxFixAttempts: 1, MaxTopicRestarts: 0, TimeMinutes: 10, MaxCostUSD: 1, MaxTokens: 500_000,
		When: "a short question: a small tree, one fix attempt, no restart, 10 minutes, $1 or 500k tokens"},
	{Name: "standard", Breadth: 3, Depth: 3, MaxFixAttempts: 3, MaxTopicRestarts: 1, When: "rgit's defaults"},
	{Name: "thorough", Breadth: 4, Depth: 3, MaxFixAttempts: 5, MaxTopicRestarts: 2, MaxCostUSD: 25,
		When: "a wide question: a larger tree, more fixes and restarts, a $25 safety net"},
}

// ProfileNamed returns the profile called name.
func ProfileNamed(name string) (Profile, error) {
	for _, p := range Profiles {
		if p.Name == strings.ToLower(strings.TrimSpace(name)) {
			return p, nil
		}
	}
	return Profile{}, badInput("pass --profile quick, standard or thorough (see 'rgit research --help')", "unknown profile %q", name)
}

// ProfileTable is the profiles as a table for --help.
func ProfileTable() string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "PROFILE\tBREADTH\tDEPTH\tFIX ATTEMPTS\tTOPIC RESTARTS\tTIME\tMAX COST\tMAX TOKENS")
	for _, p := range Profiles {
		t := "none"
		if p.TimeMinutes > 0 {
			t = fmt.Sprintf("%gm", p.TimeMinutes)
		}
		fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\t%s\t%s\t%s\n", p.Name, p.Breadth, p.Depth, p.MaxFixAttempts, p.MaxTopicRestarts, t,
			costLimit(p.MaxCostUSD), tokenLimit(p.MaxTokens))
	}
	_ = w.Flush()
	return strings.TrimRight(b.String(), "\n")
}

// ProfileSetting is one setting a profile or git config may fill: its
// flag, its git config key (research.<key>) and where it goes.
type ProfileSetting struct {
	Flag, Key string
	apply     func(c *Config, p Profile, v string) error
}

// ProfileSettings are the settings in precedence order's reach: each is
// the flag's when given, else research.<key> from git config, else the
// profile's, else the default.
var ProfileSettings = []ProfileSetting{
	{"breadth", "breadth", intSetting(func(c *Config) *int { return &c.Breadth }, func(p Profile) int { return p.Breadth })},
	{"depth", "depth", intSetting(func(c *Config) *int { return &c.Depth }, func(p Profile) int { return p.Depth })},
	{"max-fix-attempts", "maxFixAttempts", intSetting(func(c *Config) *int { return &c.MaxFixAttempts }, func(p Profile) int { return none(p.MaxFixAttempts) })},
	{"max-topic-restarts", "maxTopicRestarts", intSetting(func(c *Config) *int { return &c.MaxTopicRestarts }, func(p Profile) int { return none(p.MaxTopicRestarts) })},
	{"time", "time", func(c *Config, p Profile, v string) error {
		m := p.TimeMinutes
		if v != "" {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || f < 0 {
				return fmt.Errorf("want minutes")
			}
			m = f
		}
		c.TimeBudget = time.Duration(m * float64(time.Minute))
		return nil
	}},
	{"max-cost", "maxCost", func(c *Config, p Profile, v string) error {
		c.MaxCostUSD = p.MaxCostUSD
		if v != "" {
			var err error
			c.MaxCostUSD, err = ParseCost(v)
			return err
		}
		return nil
	}},
	{"max-tokens", "maxTokens", func(c *Config, p Profile, v string) error {
		c.MaxTokens = p.MaxTokens
		if v != "" {
			var err error
			c.MaxTokens, err = ParseTokens(v)
			return err
		}
		return nil
	}},
}

func intSetting(field func(*Config) *int, of func(Profile) int) func(*Config, Profile, string) error {
	return func(c *Config, p Profile, v string) error {
		if v == "" {
			*field(c) = of(p)
			return nil
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return fmt.Errorf("want a whole number, 0 or more")
		}
		if f := field(c); f == &c.MaxFixAttempts || f == &c.MaxTopicRestarts {
			n = none(n)
		}
		*field(c) = n
		return nil
	}
}

// none maps a count to Config's convention, where 0 is the default.
func none(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

// ApplyProfile fills the settings whose flag was not given (set says
// which were): research.<key> from git config (get), else the profile's
// (the --profile flag's, else research.profile's, else standard).
func ApplyProfile(c *Config, profile string, set func(flag string) bool, get func(key string) string) error {
	if profile == "" {
		profile = get("profile")
	}
	p := Profiles[1]
	c.Profile, c.ProfileOpen, c.profileFixed = p.Name, profile == "", map[string]bool{}
	if profile != "" {
		var err error
		if p, err = ProfileNamed(profile); err != nil {
			return err
		}
		c.Profile = p.Name
	}
	for _, s := range ProfileSettings {
		if set(s.Flag) {
			c.profileFixed[s.Flag] = true
			continue
		}
		v := strings.TrimSpace(get(s.Key))
		c.profileFixed[s.Flag] = v != ""
		if err := s.apply(c, p, v); err != nil {
			return badInput("fix it with 'git config research."+s.Key+" VALUE' or pass --"+s.Flag, "invalid git config research.%s %q: %v", s.Key, v, err)
		}
	}
	return nil
}

// GitSettings reads research.<key> from the git config of the repository
// containing dir (and the user's); outside a repository everything is unset.
func GitSettings(dir string) func(key string) string {
	st, err := gitstore.Open(dir)
	if err != nil {
		return func(string) string { return "" }
	}
	vals := map[string]string{}
	for _, k := range append([]string{"profile"}, keysOf(ProfileSettings)...) {
		vals[k] = st.Setting("research", k)
	}
	_ = st.Close()
	return func(key string) string { return vals[key] }
}

func keysOf(settings []ProfileSetting) []string {
	out := make([]string, len(settings))
	for i, s := range settings {
		out[i] = s.Key
	}
	return out
}
