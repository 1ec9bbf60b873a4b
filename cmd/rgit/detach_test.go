package main

import (
	"bytes"
	"context"
	"reflect"
	"testing"

	"github.com/urfave/cli/v2"
)

// TestChildArgs: the detached child gets the flags as the user gave them
// (wherever they were on the line), without --detach, and the topic after
// "--".
func TestChildArgs(t *testing.T) {
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"research", "--detach", "How do tides work?"}, []string{"--", "How do tides work?"}},
		{[]string{"research", "How do tides work?", "--breadth", "2", "--detach", "--depth=1", "--mock-mode"},
			[]string{"--breadth=2", "--depth=1", "--mock-mode=true", "--", "How do tides work?"}},
		{[]string{"research", "--detach", "--corpus", "a b", "--corpus", "c", "--time", "1.5", "--timeout", "30", "-y", "--", "-dash topic"},
			[]string{"--yes=true", "--time=1.5", "--corpus=a b", "--corpus=c", "--timeout=30", "--", "-dash topic"}},
		{[]string{"research", "--name", "tides", "--resume", "--detach"}, []string{"--name=tides", "--resume=true", "--"}},
	}
	for _, tt := range tests {
		var got []string
		io := &IO{Out: &bytes.Buffer{}, Err: &bytes.Buffer{}, Getenv: func(string) string { return "" }}
		app := newApp(io)
		for _, c := range app.Commands {
			if c.Name == "research" {
				c.Action = func(c *cli.Context) error { got = childArgs(c); return nil }
			}
		}
		if err := app.RunContext(context.Background(), reorderArgs(app, append([]string{"rgit"}, tt.args...))); err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q:\n got %q\nwant %q", tt.args, got, tt.want)
		}
	}
}
