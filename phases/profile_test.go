package phases

import (
	"strings"
	"testing"
	"time"
)

// TestApplyProfile checks the precedence: flag, then git config
// research.<key>, then the profile, then the defaults.
func TestApplyProfile(t *testing.T) {
	tests := []struct {
		name    string
		profile string
		flags   map[string]bool   // flags given (their values are already in Config)
		git     map[string]string // research.<key>
		want    Config
		wantErr string
	}{
		{"standard by default", "", nil, nil, Config{Breadth: 3, Depth: 3, MaxFixAttempts: 3, MaxTopicRestarts: 1, Profile: "standard"}, ""},
		{"quick", "quick", nil, nil, Config{Breadth: 2, Depth: 1, MaxFixAttempts: 1, MaxTopicRestarts: -1, TimeBudget: 10 * time.Minute, Profile: "quick"}, ""},
		{"git config names the profile", "", nil, map[string]string{"profile": "thorough"}, Config{Breadth: 4, Depth: 3, MaxFixAttempts: 5, MaxTopicRestarts: 2, Profile: "thorough"}, ""},
		{"flag profile over git config profile", "quick", nil, map[string]string{"profile": "thorough"}, Config{Breadth: 2, Depth: 1, MaxFixAttempts: 1, MaxTopicRestarts: -1, TimeBudget: 10 * time.Minute, Profile: "quick"}, ""},
		{"git config setting over profile", "quick", nil, map[string]string{"breadth": "5", "time": "0", "maxTopicRestarts": "0"}, Config{Breadth: 5, Depth: 1, MaxFixAttempts: 1, MaxTopicRestarts: -1, Profile: "quick"}, ""},
		{"flag over git config", "quick", map[string]bool{"breadth": true, "depth": true}, map[string]string{"breadth": "5"}, Config{Breadth: 7, Depth: 0, MaxFixAttempts: 1, MaxTopicRestarts: -1, TimeBudget: 10 * time.Minute, Profile: "quick"}, ""},
		{"unknown profile", "huge", nil, nil, Config{}, `unknown profile "huge"`},
		{"bad git config", "", nil, map[string]string{"depth": "deep"}, Config{}, `invalid git config research.depth "deep"`},
		{"negative git config", "", nil, map[string]string{"maxFixAttempts": "-2"}, Config{}, `research.maxFixAttempts "-2"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := Config{Breadth: 7, Depth: 0} // as if --breadth 7 --depth 0 were given; unset flags are overwritten
			err := ApplyProfile(&c, tc.profile, func(f string) bool { return tc.flags[f] }, func(k string) string { return tc.git[k] })
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || c.Breadth != tc.want.Breadth || c.Depth != tc.want.Depth || c.MaxFixAttempts != tc.want.MaxFixAttempts ||
				c.MaxTopicRestarts != tc.want.MaxTopicRestarts || c.TimeBudget != tc.want.TimeBudget || c.Profile != tc.want.Profile {
				t.Errorf("got %+v, %v\nwant %+v", c, err, tc.want)
			}
		})
	}
}
