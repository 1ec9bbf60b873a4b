package gitstore

import "testing"

func TestParseKillAt(t *testing.T) {
	cases := []struct {
		env, point string
		n          int64
	}{
		{"", "", 0},
		{"merge:ref", "merge:ref", 1},
		{"merge:ref:3", "merge:ref", 3},
		{"*:12", "*", 12},
		{"ref:write:0", "ref:write:0", 1}, // not a count: a point nobody reaches
	}
	for _, tc := range cases {
		k := parseKillAt(tc.env)
		if k.point != tc.point || k.n != tc.n {
			t.Errorf("parseKillAt(%q) = %q:%d, want %q:%d", tc.env, k.point, k.n, tc.point, tc.n)
		}
	}
}
