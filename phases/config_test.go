package phases

import (
	"errors"
	"testing"
)

func TestNormalize(t *testing.T) {
	tests := []struct {
		name    string
		cfg     Config
		wantErr bool
		wantMax int
		notices int
	}{
		{"defaults", Config{Topic: "Tides?", Breadth: 3, Depth: 3}, false, 86, 0},
		{"raised", Config{Topic: "t", Breadth: 2, Depth: 2, MaxIterations: 5}, false, 13, 1},
		{"kept", Config{Topic: "t", Breadth: 2, Depth: 2, MaxIterations: 40}, false, 40, 0},
		{"breadth 0", Config{Topic: "t", Breadth: 0, Depth: 1}, true, 0, 0},
		{"negative depth", Config{Topic: "t", Breadth: 1, Depth: -1}, true, 0, 0},
		{"no topic", Config{Breadth: 1}, true, 0, 0},
		{"bad name", Config{Topic: "t", Name: "A/B", Breadth: 1}, true, 0, 0},
		{"dotdot name", Config{Topic: "t", Name: "a..b", Breadth: 1}, true, 0, 0},
		{"resume without name", Config{Resume: true, Breadth: 1}, true, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg
			notices, err := cfg.Normalize()
			var bad *BadInputError
			if tc.wantErr {
				if !errors.As(err, &bad) {
					t.Fatalf("Normalize() = %v, want a BadInputError", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Normalize() = %v", err)
			}
			if cfg.MaxIterations != tc.wantMax || len(notices) != tc.notices {
				t.Errorf("max %d notices %q, want %d and %d notices", cfg.MaxIterations, notices, tc.wantMax, tc.notices)
			}
		})
	}
	if n := DefaultName("How does sync.Mutex avoid starving?"); n != "how-does-sync-mutex-avoid-starving" {
		t.Errorf("DefaultName = %q", n)
	}
}
