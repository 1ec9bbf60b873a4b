package main

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/urfave/cli/v2"
)

func TestReorderArgs(t *testing.T) {
	app := &cli.App{Commands: []*cli.Command{{
		Name: "research",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "breadth"},
			&cli.BoolFlag{Name: "yes"},
			&cli.StringFlag{Name: "name", Aliases: []string{"n"}},
		},
	}}}
	tests := []struct {
		name string
		in   []string
		want []string
	}{
		{"flags first", []string{"rgit", "research", "--breadth", "2", "topic"}, []string{"rgit", "research", "--breadth", "2", "--", "topic"}},
		{"flags after topic", []string{"rgit", "research", "topic", "--breadth", "2"}, []string{"rgit", "research", "--breadth", "2", "--", "topic"}},
		{"bool flag does not eat topic", []string{"rgit", "research", "--yes", "topic"}, []string{"rgit", "research", "--yes", "--", "topic"}},
		{"equals form", []string{"rgit", "research", "topic", "--name=x"}, []string{"rgit", "research", "--name=x", "--", "topic"}},
		{"alias", []string{"rgit", "research", "topic", "-n", "x"}, []string{"rgit", "research", "-n", "x", "--", "topic"}},
		{"double dash keeps dashes in topic", []string{"rgit", "research", "--", "-topic"}, []string{"rgit", "research", "--", "-topic"}},
		{"unknown command untouched", []string{"rgit", "nosuch", "a", "--b"}, []string{"rgit", "nosuch", "a", "--b"}},
		{"no command", []string{"rgit"}, []string{"rgit"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := reorderArgs(app, tc.in); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("reorderArgs(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestVersionAndExitCodes(t *testing.T) {
	var out, errb bytes.Buffer
	io := &IO{In: &bytes.Buffer{}, Out: &out, Err: &errb}
	if code := run(t.Context(), []string{"rgit", "version"}, io); code != 0 {
		t.Fatalf("version exit %d, stderr %q", code, errb.String())
	}
	if out.String() != "rgit dev\n" {
		t.Errorf("version printed %q", out.String())
	}
	errb.Reset()
	if code := run(t.Context(), []string{"rgit", "version", "--bogus"}, io); code != exitUsage {
		t.Errorf("unknown flag: exit %d, want %d (stderr %q)", code, exitUsage, errb.String())
	}
}
