// Package integrate registers `rgit mcp` with the agent CLIs, each in its
// own configuration format: Claude Code (mcpServers in .mcp.json or
// ~/.claude.json, plus a plugin with the /deep-research and
// /cancel-research slash commands), Codex ([mcp_servers.rgit] in
// config.toml), Gemini CLI (mcpServers in .gemini/settings.json) and
// opencode (mcp in opencode.json).
//
// Plan reads the files and computes their new contents without writing
// anything: it merges rgit's entry into what is there, keeping every byte
// it does not own (other servers, settings, key order, formatting, and the
// comments of JSONC and TOML files), and refuses a file it cannot parse
// with a ParseError naming the file and line. Running it on its own output
// gives the same bytes. Apply writes the changed files, each through a
// temporary file and a rename. Nothing written holds a secret: rgit's entry
// names the binary, its arguments and, for Codex, the names (never the
// values) of the variables to pass through.
//
// Where the files are, per CLI and scope, is in locate.go with its sources.
package integrate

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
)

// CLI is an agent CLI rgit can register with.
type CLI string

// The CLIs, in the order rgit lists them.
const (
	Claude   CLI = "claude"
	Codex    CLI = "codex"
	Gemini   CLI = "gemini"
	OpenCode CLI = "opencode"
)

// CLIs lists every CLI integrate knows.
var CLIs = []CLI{Claude, Codex, Gemini, OpenCode}

// Scope is where the registration goes: the user's own configuration, or
// files in the repository.
type Scope string

// The scopes.
const (
	User    Scope = "user"
	Project Scope = "project"
)

// Options say what to register where.
type Options struct {
	CLI     CLI
	Scope   Scope
	Root    string              // repository root, for Project
	Command string              // absolute path of the rgit binary
	Args    []string            // its arguments, ["mcp"]
	Getenv  func(string) string // HOME, CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME, XDG_CONFIG_HOME
}

// File is one file Plan would write.
type File struct {
	Path   string
	Old    []byte // the current contents; nil when the file does not exist
	New    []byte
	Mode   fs.FileMode // the current mode, kept; 0644 for a new file
	Exists bool
}

// Changed reports whether writing f would change the file.
func (f File) Changed() bool { return !f.Exists || string(f.Old) != string(f.New) }

// ParseCLI checks a CLI name.
func ParseCLI(name string) (CLI, error) {
	if c := CLI(name); slices.Contains(CLIs, c) {
		return c, nil
	}
	return "", fmt.Errorf("unknown agent CLI %q: want claude, codex, gemini or opencode", name)
}

// Plan computes the files that register rgit with o.CLI.
func Plan(o Options) ([]File, error) {
	if o.Command == "" {
		return nil, errors.New("plan integration: no rgit command to register")
	}
	if o.Scope == Project && o.Root == "" {
		return nil, errors.New("plan integration: project scope needs the repository root")
	}
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	loc, err := locate(o)
	if err != nil {
		return nil, err
	}
	cfg, err := read(loc.config)
	if err != nil {
		return nil, err
	}
	if err := merge(o, &cfg); err != nil {
		return nil, err
	}
	files := []File{cfg}
	if o.CLI == Claude {
		plugin, err := claudePlugin(loc)
		if err != nil {
			return nil, err
		}
		files = append(files, plugin...)
	}
	return files, nil
}

// read loads a file; a missing file is empty.
func read(path string) (File, error) {
	f := File{Path: path, Mode: 0o644}
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return f, nil
	case err != nil:
		return f, fmt.Errorf("read %s: %w", path, err)
	}
	if fi, err := os.Stat(path); err == nil {
		f.Mode = fi.Mode().Perm()
	}
	f.Old, f.New, f.Exists = data, data, true
	return f, nil
}

// merge puts rgit's entry into the CLI's configuration file.
func merge(o Options, f *File) error {
	var out []byte
	var err error
	switch o.CLI {
	case Codex:
		out, err = setTOMLTable(f.Path, f.Old, codexTable(o))
	default:
		out, err = setJSON(f.Path, f.Old, o.CLI != Claude, jsonEntry(o))
	}
	if err == nil {
		f.New = out
	}
	return err
}

// setJSON applies each (path, value) of sets in turn.
func setJSON(file string, src []byte, comments bool, sets []jsonSet) ([]byte, error) {
	d, err := newJSONDoc(file, src, comments)
	if err != nil {
		return nil, err
	}
	for _, s := range sets {
		if err := d.set(s.path, s.value); err != nil {
			return nil, err
		}
	}
	return d.src, nil
}

// jsonSet is one value rgit owns in a JSON file.
type jsonSet struct {
	path  []string
	value any
}
