package phases

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseDecision(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		want    Decision
		wantErr string // a substring of the error; "" = no error
	}{
		{"full decision", `{"verdict":"reject","summary":"thin","gaps":["cite the 2021 figure"],"shouldContinue":true,"nextSearchTopic":"2021 adoption survey","urlToSearch":"https://example.org/survey"}`,
			Decision{Verdict: "reject", Summary: "thin", Gaps: []string{"cite the 2021 figure"}, ShouldContinue: true, NextSearchTopic: "2021 adoption survey", URLToSearch: "https://example.org/survey"}, ""},
		{"bare accept derives stop", `{"verdict": "accept", "summary": "good", "gaps": []}`, Decision{Verdict: "accept", Summary: "good"}, ""},
		{"fenced reject with prose derives continue", "I looked.\n```json\n{\"verdict\":\"REJECT\",\"summary\":\"thin\",\"gaps\":[\"no sources\",\" \"]}\n```\nThat is all.", Decision{Verdict: "reject", Summary: "thin", Gaps: []string{"no sources"}, ShouldContinue: true}, ""},
		{"last decision wins", `{"verdict":"reject"} then {"verdict":"accept","summary":"ok"}`, Decision{Verdict: "accept", Summary: "ok"}, ""},
		{"later non-decision object ignored", `{"verdict":"accept","summary":"ok"} and {"note": 1}`, Decision{Verdict: "accept", Summary: "ok"}, ""},
		{"nested braces in summary", `{"verdict":"accept","summary":"uses {x}"}`, Decision{Verdict: "accept", Summary: "uses {x}"}, ""},
		{"no verdict, stop without gaps accepts", `{"summary":"covered","gaps":[],"shouldContinue":false}`, Decision{Verdict: "accept", Summary: "covered"}, ""},
		{"no verdict, continue rejects", `{"summary":"thin","gaps":["more"],"shouldContinue":true,"nextSearchTopic":"tidal bores"}`, Decision{Verdict: "reject", Summary: "thin", Gaps: []string{"more"}, ShouldContinue: true, NextSearchTopic: "tidal bores"}, ""},
		{"control characters cleaned", "{\"verdict\":\"reject\",\"gaps\":[\"a\\u0007b\"]}", Decision{Verdict: "reject", Gaps: []string{"a b"}, ShouldContinue: true}, ""},
		{"unknown verdict", `{"verdict":"maybe"}`, Decision{}, `"verdict" "maybe" is neither`},
		{"empty verdict", `{"verdict":"","shouldContinue":false}`, Decision{}, `"verdict" is empty`},
		{"no json", "looks fine to me", Decision{}, "no decision"},
		{"object without decision keys", `{"summary":"fine","gaps":[]}`, Decision{}, "no decision"},
		{"shouldContinue a string", `{"verdict":"reject","shouldContinue":"yes"}`, Decision{}, `"shouldContinue" has the wrong type`},
		{"gaps a string", `{"verdict":"reject","gaps":"more sources"}`, Decision{}, `"gaps" has the wrong type`},
		{"summary a number", `{"verdict":"accept","summary":3}`, Decision{}, `"summary" has the wrong type`},
		{"verdict a bool", `{"verdict":true}`, Decision{}, `"verdict" has the wrong type`},
		{"nextSearchTopic a list", `{"verdict":"reject","nextSearchTopic":["a"]}`, Decision{}, `"nextSearchTopic" has the wrong type`},
		{"url not http", `{"verdict":"reject","urlToSearch":"file:///etc/passwd"}`, Decision{}, `"urlToSearch" "file:///etc/passwd" is not an http(s) URL`},
		{"accept but continue", `{"verdict":"accept","summary":"ok","gaps":[],"shouldContinue":true}`, Decision{}, "contradicts"},
		{"malformed last decision is not skipped", `{"verdict":"accept"} {"verdict":"reject","gaps":7}`, Decision{}, `"gaps" has the wrong type`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseDecision(tc.text)
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("parseDecision err = %v, want %q", err, tc.wantErr)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("parseDecision = %#v, want %#v", got, tc.want)
			}
		})
	}
}

func TestDecisionAccepted(t *testing.T) {
	tests := []struct {
		d    Decision
		want bool
	}{
		{Decision{Verdict: "accept"}, true},
		{Decision{Verdict: "reject", ShouldContinue: true, Gaps: []string{"x"}}, false},
		{Decision{Verdict: "reject", ShouldContinue: false}, true}, // stop with no gaps accepts the topic
		{Decision{Verdict: "reject", ShouldContinue: false, Gaps: []string{"x"}}, false},
	}
	for _, tc := range tests {
		if got := tc.d.Accepted(); got != tc.want {
			t.Errorf("%+v.Accepted() = %v, want %v", tc.d, got, tc.want)
		}
	}
}
