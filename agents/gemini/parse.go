package gemini

import (
	"strings"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/proc"
)

// event is the part of a stream-json line the backend reads.
type event struct {
	Type      string `json:"type"`
	SessionID string `json:"session_id"`
	Model     string `json:"model"` // on init: the model the CLI was set to (may be an alias such as "auto")
	Role      string `json:"role"`
	Content   string `json:"content"`
	Delta     bool   `json:"delta"`
	Status    string `json:"status"`
	Severity  string `json:"severity"`
	Message   string `json:"message"`
	ToolName  string `json:"tool_name"`
	ToolID    string `json:"tool_id"`
	Timestamp string `json:"timestamp"`
	Output    string `json:"output"` // of a tool_result
	Params    struct {
		FilePath string `json:"file_path"`
		Prompt   string `json:"prompt"` // web_fetch: the URLs are in it
		URL      string `json:"url"`    // web_fetch in some versions
	} `json:"parameters"`
	Error *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
	Stats *struct {
		InputTokens  int64 `json:"input_tokens"`
		OutputTokens int64 `json:"output_tokens"`
		Cached       int64 `json:"cached"`
		// Models are the models that answered, with their tokens: the
		// real model behind an alias such as "auto".
		Models map[string]struct {
			TotalTokens int64 `json:"total_tokens"`
		} `json:"models"`
	} `json:"stats"`
}

// writeTools are the Gemini CLI's tools that write a file.
var writeTools = map[string]bool{"write_file": true, "replace": true, "edit": true}

// parser accumulates a run's events; it is the backend's proc.Parser.
type parser struct {
	dir     string            // the workspace, for Result.Files
	passed  string            // the model rgit passed with --model ("" for the CLI's default)
	model   string            // the model init named
	pending map[string]string // tool_id -> path of a write not yet confirmed
	files   []string          // paths written successfully
	session string
	all     strings.Builder // every assistant text
	tail    strings.Builder // assistant text since the last tool call
	warning string          // the last non-fatal error event
	result  *event
	fetches map[string]webFetch // web_fetch calls awaiting their results, by tool_id
	sources []agents.Source     // pages the agent read
}

// Session returns the session id seen so far.
func (p *parser) Session() string { return p.session }

func (p *parser) Line(b []byte) {
	var e event
	if !proc.DecodeLine(b, &e) {
		return
	}
	switch e.Type {
	case "init":
		p.session, p.model = e.SessionID, e.Model
	case "message":
		if e.Role != "assistant" {
			return
		}
		if !e.Delta {
			p.tail.Reset()
		}
		p.all.WriteString(e.Content)
		p.tail.WriteString(e.Content)
	case "tool_use":
		p.tail.Reset()
		if writeTools[e.ToolName] && e.Params.FilePath != "" {
			if p.pending == nil {
				p.pending = map[string]string{}
			}
			p.pending[e.ToolID] = e.Params.FilePath
		}
		p.noteFetch(e)
	case "tool_result":
		p.tail.Reset()
		if path, ok := p.pending[e.ToolID]; ok && e.Status == "success" {
			p.files = append(p.files, path)
		}
		p.fetched(e)
	case "error":
		p.warning = e.Message
	case "result":
		p.result = &e
	}
}

// Finish decides the outcome: success needs a result event with status
// success and exit 0. Fatal errors before the stream starts (auth, trust)
// only reach stderr.
func (p *parser) Finish(res proc.Result, env []string) (agents.Result, error) {
	out := agents.Result{SessionID: p.session, ExitCode: res.ExitCode, Files: proc.RelFiles(p.dir, p.files), Sources: p.sources}
	out.Usage.Duration = res.Duration
	out.Model = p.ranModel()
	r := p.result
	if r != nil && r.Stats != nil {
		out.Usage.InputTokens = r.Stats.InputTokens
		out.Usage.OutputTokens = r.Stats.OutputTokens
		out.Usage.CachedTokens = r.Stats.Cached
	}
	if r != nil && r.Status == "success" && res.ExitCode == 0 {
		out.Text = strings.TrimSpace(p.tail.String())
		if out.Text == "" {
			out.Text = strings.TrimSpace(p.all.String())
		}
		return out, nil
	}
	var msg string
	switch {
	case r != nil && r.Error != nil && r.Error.Message != "":
		msg = r.Error.Message
	case stderrMessage(res.Stderr) != "":
		msg = stderrMessage(res.Stderr)
	case p.warning != "":
		msg = p.warning
	case r == nil:
		msg = "the stream ended without a result event"
	default:
		msg = "the run ended with status " + r.Status
	}
	var kind error
	if res.ExitCode == exitAuth {
		kind = agents.ErrAuth
	}
	return out, proc.Fail(Name, kind, msg, res.ExitCode, env)
}

// ranModel is the model the run used, as far as the CLI says: the model of
// the result's stats with the most tokens (a run may also call a small
// routing model), else the model init named, else the model rgit passed;
// routing aliases ("auto", "auto-gemini-2.5") name no model.
func (p *parser) ranModel() string {
	if r := p.result; r != nil && r.Stats != nil {
		best, most := "", int64(-1)
		for m, u := range r.Stats.Models {
			if !isAlias(m) && (u.TotalTokens > most || u.TotalTokens == most && m < best) {
				best, most = m, u.TotalTokens
			}
		}
		if best != "" {
			return best
		}
	}
	if !isAlias(p.model) {
		return p.model
	}
	return p.passed
}

// isAlias says whether m names no model: empty, or one of the CLI's
// routing aliases.
func isAlias(m string) bool { return m == "" || m == "auto" || strings.HasPrefix(m, "auto-") }

// stderrMessage keeps the last meaningful lines of stderr, without the
// mode banners and the JavaScript stack frames of an uncaught error.
func stderrMessage(b []byte) string {
	var keep []string
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "at ") || strings.HasPrefix(l, "YOLO mode is enabled") ||
			strings.HasPrefix(l, "Ripgrep is not available") || l == "}" || strings.HasPrefix(l, "status:") {
			continue
		}
		keep = append(keep, proc.StripANSI(l))
	}
	if len(keep) > 3 {
		keep = keep[len(keep)-3:]
	}
	return strings.Join(keep, "\n")
}
