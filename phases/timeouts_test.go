package phases

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/agents"
)

func TestParseTimeouts(t *testing.T) {
	tests := []struct {
		spec    string
		all     time.Duration
		per     map[Phase]time.Duration
		wantErr string
	}{
		{spec: "20m", all: 20 * time.Minute},
		{spec: "1200", all: 1200 * time.Second},
		{spec: "1h30m", all: 90 * time.Minute},
		{spec: "research=45m,review=3m", per: map[Phase]time.Duration{PhaseResearch: 45 * time.Minute, PhaseReview: 3 * time.Minute}},
		{spec: " 10m , final-review=900 ", all: 10 * time.Minute, per: map[Phase]time.Duration{PhaseFinalReview: 900 * time.Second}},
		{spec: "plan=1m,synthesize=2m,revise=3m", per: map[Phase]time.Duration{PhasePlan: time.Minute, PhaseSynthesize: 2 * time.Minute, PhaseRevise: 3 * time.Minute}},
		{spec: "", wantErr: "empty --timeout"},
		{spec: "0", wantErr: `invalid --timeout "0": must be at least 1s`},
		{spec: "-5m", wantErr: "must be at least 1s"},
		{spec: "500ms", wantErr: "must be at least 1s"},
		{spec: "soon", wantErr: `invalid --timeout "soon": not a duration`},
		{spec: "bogus=5m", wantErr: `unknown phase "bogus"`},
		{spec: "research=", wantErr: "not a duration"},
		{spec: "research=45m,", wantErr: "not a duration"},
		{spec: "99999999999", wantErr: "too long"},
	}
	for _, tc := range tests {
		t.Run(tc.spec, func(t *testing.T) {
			all, per, err := ParseTimeouts(tc.spec)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("ParseTimeouts(%q) err = %v, want %q", tc.spec, err, tc.wantErr)
				}
				if _, ok := err.(*BadInputError); !ok {
					t.Errorf("ParseTimeouts(%q) err is %T, want *BadInputError (exit 2)", tc.spec, err)
				}
				return
			}
			if err != nil || all != tc.all || !reflect.DeepEqual(per, tc.per) {
				t.Errorf("ParseTimeouts(%q) = %v, %v, %v; want %v, %v", tc.spec, all, per, err, tc.all, tc.per)
			}
		})
	}
}

func TestEffectiveTimeouts(t *testing.T) {
	def := map[Phase]int{PhasePlan: 300, PhaseResearch: 1800, PhaseReview: 300, PhaseSynthesize: 1200, PhaseFinalReview: 600, PhaseRevise: 900}
	all := func(s int) map[Phase]int {
		m := map[Phase]int{}
		for p := range def {
			m[p] = s
		}
		return m
	}
	with := func(m map[Phase]int, p Phase, s int) map[Phase]int {
		out := map[Phase]int{}
		for k, v := range m {
			out[k] = v
		}
		out[p] = s
		return out
	}
	tests := []struct {
		name  string
		prior *Settings // nil: a new session
		cfg   Config
		want  PhaseTimeouts
	}{
		{"defaults", nil, Config{}, PhaseTimeouts{Seconds: def, FinalReviewMax: 900}},
		{"all phases", nil, Config{Timeout: 20 * time.Minute}, PhaseTimeouts{Seconds: all(1200)}},
		{"some phases", nil, Config{PhaseTimeouts: map[Phase]time.Duration{PhaseResearch: 45 * time.Minute}}, PhaseTimeouts{Seconds: with(def, PhaseResearch, 2700), FinalReviewMax: 900}},
		{"final review fixed", nil, Config{PhaseTimeouts: map[Phase]time.Duration{PhaseFinalReview: time.Minute}}, PhaseTimeouts{Seconds: with(def, PhaseFinalReview, 60)}},
		{"resume keeps", &Settings{PhaseTimeouts: &PhaseTimeouts{Seconds: with(def, PhaseReview, 60), FinalReviewMax: 900}}, Config{}, PhaseTimeouts{Seconds: with(def, PhaseReview, 60), FinalReviewMax: 900}},
		{"resume overrides one", &Settings{PhaseTimeouts: &PhaseTimeouts{Seconds: def, FinalReviewMax: 900}}, Config{PhaseTimeouts: map[Phase]time.Duration{PhasePlan: time.Minute}}, PhaseTimeouts{Seconds: with(def, PhasePlan, 60), FinalReviewMax: 900}},
		{"resume of an old session", &Settings{Timeout: 1200}, Config{}, PhaseTimeouts{Seconds: all(1200)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got *PhaseTimeouts
			if tc.prior == nil {
				got = newTimeouts(tc.cfg)
			} else {
				got = resumeTimeouts(*tc.prior, tc.cfg)
			}
			if !reflect.DeepEqual(*got, tc.want) {
				t.Errorf("got %+v, want %+v", *got, tc.want)
			}
		})
	}
}

func TestFinalReviewTimeoutScales(t *testing.T) {
	dir := t.TempDir()
	s := Settings{PhaseTimeouts: newTimeouts(Config{})}
	in := callInputs{phaseTimeouts: s.timeouts()}
	tests := []struct {
		size int
		want time.Duration
	}{
		{0, 10 * time.Minute}, {finalReviewScale / 2, 12*time.Minute + 30*time.Second}, {finalReviewScale * 3, 15 * time.Minute},
	}
	for _, tc := range tests {
		report := dir + "/report.md"
		if err := writeFile(report, []byte(strings.Repeat("x", tc.size))); err != nil {
			t.Fatal(err)
		}
		got := callTimeoutFor(call{phase: PhaseFinalReview, brief: briefFor(report)}, in)
		if got != tc.want {
			t.Errorf("report of %d bytes: final review timeout %v, want %v", tc.size, got, tc.want)
		}
	}
	if got := callTimeoutFor(call{phase: PhaseResearch}, in); got != 30*time.Minute {
		t.Errorf("research timeout %v, want 30m", got)
	}
}

func briefFor(reviewPath string) agents.Brief { return agents.Brief{ReviewPath: reviewPath} }
