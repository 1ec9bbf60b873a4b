package integrate

import (
	"slices"
	"strconv"

	"github.com/rgit-dev/rgit/agents/registry/catalog"
)

// ServerName is the name rgit registers under; the CLIs prefix the tools
// with it (mcp__rgit__research_start, mcp_rgit_research_start).
const ServerName = "rgit"

// toolTimeoutSec bounds one tool call. research_status may wait up to 45
// s for a session to move, longer than opencode's 5 s and Codex's 60 s
// defaults; Claude Code and Gemini CLI already allow minutes.
const toolTimeoutSec = 120

// jsonEntry is what rgit owns in a JSON configuration: each key of its
// server entry, set one by one so that keys the user added to the entry
// (a timeout, a cwd) stay.
func jsonEntry(o Options) []jsonSet {
	var root string
	var keys object
	switch o.CLI {
	case Claude:
		// .mcp.json and ~/.claude.json, as `claude mcp add` writes them.
		root = "mcpServers"
		keys = object{{"type", "stdio"}, {"command", o.Command}, {"args", args(o)}}
	case Gemini:
		// trust: run the tools without asking; without it (or yolo mode)
		// headless Gemini CLI does not even offer them to the model.
		root = "mcpServers"
		keys = object{{"command", o.Command}, {"args", args(o)}, {"trust", true}}
	case OpenCode:
		// opencode's McpLocalConfig: the command and its arguments in one
		// array, timeout in milliseconds.
		root = "mcp"
		keys = object{{"type", "local"}, {"command", append([]string{o.Command}, args(o)...)},
			{"enabled", true}, {"timeout", toolTimeoutSec * 1000}}
	}
	sets := make([]jsonSet, len(keys))
	for i, k := range keys {
		sets[i] = jsonSet{path: []string{root, ServerName, k.key}, value: k.val}
	}
	return sets
}

func args(o Options) []string {
	if o.Args == nil {
		return []string{}
	}
	return o.Args
}

// codexTable is [mcp_servers.rgit]. Codex starts MCP servers with a short
// allow-list of variables (HOME, PATH, ...); env_vars adds, by name only,
// the ones rgit's research agents need: the backends' credential variables
// from the catalog and the endpoints and defaults rgit reads.
// default_tools_approval_mode = "approve" runs the tools without asking,
// as `codex exec` cannot ask.
func codexTable(o Options) tomlTable {
	vars := passThrough()
	lines := []string{
		"[mcp_servers." + ServerName + "]",
		"# Written by 'rgit integrate codex': run it again to update this table.",
		"command = " + tomlQuote(o.Command),
		"args = " + tomlStrings(args(o)),
		"env_vars = " + tomlStrings(vars),
		`default_tools_approval_mode = "approve"`,
		"tool_timeout_sec = " + strconv.Itoa(toolTimeoutSec),
	}
	return tomlTable{
		path:  []string{"mcp_servers", ServerName},
		lines: lines,
		want: map[string]any{
			"command": o.Command, "args": anys(args(o)), "env_vars": anys(vars),
			"default_tools_approval_mode": "approve", "tool_timeout_sec": int64(toolTimeoutSec),
		},
	}
}

// passThrough names the variables a research session may need.
func passThrough() []string {
	vars := append(catalog.KeyVars(), "OPENAI_BASE_URL", "OPENAI_MODEL", "ANTHROPIC_BASE_URL",
		"GOOGLE_GEMINI_BASE_URL", "RGIT_MODEL", "RGIT_REVIEW_MODEL", "RGIT_FALLBACK")
	slices.Sort(vars)
	return slices.Compact(vars)
}

// anys is ss as the TOML decoder returns an array.
func anys(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
