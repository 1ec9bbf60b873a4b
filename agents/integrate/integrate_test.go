package integrate

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden files")

const rgitBin = "/opt/rgit/bin/rgit"

// TestGolden registers rgit in the user scope of every CLI, into each
// case's files (testdata/<cli>/<case>.txtar, under a scratch HOME), and
// compares the configuration and settings files written with
// <case>.golden, the scratch directory written as $ROOT. Then it plans
// again and must find nothing to change.
func TestGolden(t *testing.T) {
	for _, cli := range CLIs {
		cases, err := filepath.Glob(filepath.Join("testdata", string(cli), "*.txtar"))
		if err != nil || len(cases) != 3 {
			t.Fatalf("%s: want 3 cases, got %v (%v)", cli, cases, err)
		}
		for _, c := range cases {
			name := strings.TrimSuffix(filepath.Base(c), ".txtar")
			t.Run(string(cli)+"/"+name, func(t *testing.T) {
				root := t.TempDir()
				ar, err := txtar.ParseFile(c)
				if err != nil {
					t.Fatal(err)
				}
				if err := txtar.Write(ar, root); err != nil {
					t.Fatal(err)
				}
				o := userOptions(cli, root)
				files, err := Plan(o)
				if err != nil {
					t.Fatal(err)
				}
				if err := Apply(files); err != nil {
					t.Fatal(err)
				}
				got := &txtar.Archive{Comment: ar.Comment}
				for _, f := range files {
					if strings.Contains(f.Path, filepath.Join("rgit", "plugin")) || strings.Contains(f.Path, "marketplace.json") {
						continue // the plugin's own files: TestPluginFiles
					}
					rel, _ := filepath.Rel(root, f.Path)
					got.Files = append(got.Files, txtar.File{Name: rel, Data: bytes.ReplaceAll(f.New, []byte(root), []byte("$ROOT"))})
				}
				checkGolden(t, strings.TrimSuffix(c, ".txtar")+".golden", txtar.Format(got))
				again, err := Plan(o)
				if err != nil {
					t.Fatal(err)
				}
				for _, f := range again {
					if f.Changed() {
						t.Errorf("second run would change %s:\n%s", f.Path, f.New)
					}
				}
			})
		}
	}
}

func userOptions(cli CLI, root string) Options {
	env := map[string]string{"HOME": filepath.Join(root, "home")}
	return Options{CLI: cli, Scope: User, Command: rgitBin, Args: []string{"mcp"}, Getenv: func(k string) string { return env[k] }}
}

func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test -update rewrites it):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// TestOutsideUntouched: every line of a case's input file is still in the
// output, in order, except the lines of rgit's own entry (the golden
// files show those).
func TestOutsideUntouched(t *testing.T) {
	for _, c := range []struct {
		cli  CLI
		file string
		drop []string // input lines rgit owns
	}{
		{Claude, "others", nil},
		{Codex, "others", nil},
		{Codex, "older", []string{`command = "/usr/local/bin/rgit-0.1"`, "args = [", `  "serve-mcp",`, "]", `env = { RGIT_MODEL = "mock" }`}},
		{Gemini, "others", nil},
		{OpenCode, "others", nil},
	} {
		root := t.TempDir()
		ar, _ := txtar.ParseFile(filepath.Join("testdata", string(c.cli), c.file+".txtar"))
		if err := txtar.Write(ar, root); err != nil {
			t.Fatal(err)
		}
		files, err := Plan(userOptions(c.cli, root))
		if err != nil {
			t.Fatal(err)
		}
		in := strings.Split(string(files[0].Old), "\n")
		out := strings.Split(string(files[0].New), "\n")
		j := 0
		for _, line := range in {
			if slices.Contains(c.drop, line) {
				continue
			}
			// A comma may follow what was the last member.
			for j < len(out) && strings.ReplaceAll(out[j], ",", "") != strings.ReplaceAll(line, ",", "") {
				j++
			}
			if j == len(out) {
				t.Errorf("%s/%s: input line %q lost or moved", c.cli, c.file, line)
				break
			}
		}
	}
}
