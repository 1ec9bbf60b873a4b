package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rgit-dev/rgit/agents"
)

// toolDef is one entry of the request's tools list.
type toolDef struct {
	Type     string      `json:"type"`
	Function toolFuncDef `json:"function"`
}

type toolFuncDef struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Parameters  map[string]any `json:"parameters"`
}

// workspace is what one Run's tools may touch: Task.Dir and Task.Output
// for writing, Task.Dir and the corpus directories for reading.
type workspace struct {
	dir     string   // Task.Dir, symlinks resolved
	output  string   // Task.Output, cleaned
	roots   []string // readable directories, symlinks resolved; dir first
	client  *http.Client
	fetch   fetchLimits
	searx   string
	written []string        // relative to dir, in write order, no duplicates
	sources []agents.Source // pages fetch_url read, for Result.Sources
}

func (a *Agent) newWorkspace(task agents.Task) (*workspace, error) {
	if !filepath.IsAbs(task.Dir) || !filepath.IsAbs(task.Output) {
		return nil, fmt.Errorf("workspace %q and output %q must be absolute paths", task.Dir, task.Output)
	}
	dir, err := filepath.EvalSymlinks(task.Dir)
	if err != nil {
		return nil, fmt.Errorf("open workspace: %w", err)
	}
	output, err := realPath(task.Output)
	if err != nil {
		return nil, fmt.Errorf("resolve output: %w", err)
	}
	ws := &workspace{
		dir:    dir,
		output: output,
		roots:  []string{dir},
		client: a.o.HTTPClient,
		fetch:  fetchLimits{maxBytes: a.o.FetchMaxBytes, timeout: a.o.FetchTimeout},
		searx:  strings.TrimRight(a.o.SearxngURL, "/"),
	}
	corpus := append(slices.Clone(a.o.Corpus), task.Brief.Corpus...)
	if len(corpus) == 0 && task.Root != "" {
		corpus = []string{task.Root}
	}
	for _, c := range corpus {
		if real, err := filepath.EvalSymlinks(c); err == nil && !slices.Contains(ws.roots, real) {
			ws.roots = append(ws.roots, real)
		}
	}
	return ws, nil
}

// tools lists the tool definitions offered to the model.
func (ws *workspace) tools() []toolDef {
	str := func(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }
	def := func(name, desc string, props map[string]any, required ...string) toolDef {
		if required == nil {
			required = []string{}
		}
		return toolDef{Type: "function", Function: toolFuncDef{Name: name, Description: desc,
			Parameters: map[string]any{"type": "object", "properties": props, "required": required}}}
	}
	defs := []toolDef{
		def("list_files", "List files under a directory of the workspace or corpus (recursive, at most 500 entries).",
			map[string]any{"path": str("directory; relative paths are inside the workspace; empty means the workspace")}),
		def("read_file", "Read a text file of the workspace or corpus.",
			map[string]any{"path": str("file path; relative paths are inside the workspace")}, "path"),
		def("search_files", "Search the workspace and corpus files for a word or phrase (case-insensitive). Returns path:line: text.",
			map[string]any{"query": str("text to find")}, "query"),
		def("write_file", "Create or overwrite a file inside the workspace, or the output file. Write complete content.",
			map[string]any{"path": str("file path inside the workspace, or the output file's absolute path"), "content": str("the whole file content")}, "path", "content"),
		def("fetch_url", "Fetch an http or https page; its text is saved under sources/ in the workspace and returned.",
			map[string]any{"url": str("absolute http or https URL")}, "url"),
	}
	if ws.searx != "" {
		defs = append(defs, def("web_search", "Search the web. Returns titles, URLs and snippets.",
			map[string]any{"query": str("search terms")}, "query"))
	}
	return defs
}

// call runs one tool and returns its output for the model. Failures are
// returned as text so the model can correct itself; they never end the run.
func (ws *workspace) call(ctx context.Context, name, rawArgs string) string {
	var args struct {
		Path    string `json:"path"`
		Content string `json:"content"`
		Query   string `json:"query"`
		URL     string `json:"url"`
	}
	if strings.TrimSpace(rawArgs) != "" {
		if err := json.Unmarshal([]byte(rawArgs), &args); err != nil {
			return "error: arguments are not a JSON object: " + err.Error()
		}
	}
	var out string
	var err error
	switch name {
	case "list_files":
		out, err = ws.listFiles(args.Path)
	case "read_file":
		out, err = ws.readFile(args.Path)
	case "search_files":
		out, err = ws.searchFiles(args.Query)
	case "write_file":
		out, err = ws.writeFile(args.Path, args.Content)
	case "fetch_url":
		out, err = ws.fetchURL(ctx, args.URL)
	case "web_search":
		out, err = ws.webSearch(ctx, args.Query)
	default:
		err = fmt.Errorf("unknown tool %q", name)
	}
	if err != nil {
		return "error: " + err.Error()
	}
	return out
}

// wroteOutput reports whether write_file produced Task.Output.
func (ws *workspace) wroteOutput() bool {
	rel, err := filepath.Rel(ws.dir, ws.output)
	return err == nil && slices.Contains(ws.written, rel)
}

func (ws *workspace) noteWrite(abs string) {
	rel, err := filepath.Rel(ws.dir, abs)
	if err != nil {
		rel = abs
	}
	if !slices.Contains(ws.written, rel) {
		ws.written = append(ws.written, rel)
	}
}
