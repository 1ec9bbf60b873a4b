package opencode

import (
	"strings"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/proc"
)

// event is the part of a `--format json` line the backend reads.
type event struct {
	Type      string `json:"type"`
	SessionID string `json:"sessionID"`
	Part      *struct {
		Tool  string `json:"tool"` // of a tool_use
		State struct {
			Status string `json:"status"`
			Input  struct {
				FilePath string `json:"filePath"`
				URL      string `json:"url"` // webfetch
			} `json:"input"`
			Output string `json:"output"` // the tool's result, what the agent saw
			Title  string `json:"title"`
			Time   struct {
				End int64 `json:"end"` // ms since the epoch
			} `json:"time"`
		} `json:"state"`
		Text   string  `json:"text"`
		Reason string  `json:"reason"`
		Cost   float64 `json:"cost"`
		Tokens *struct {
			Input     int64 `json:"input"`
			Output    int64 `json:"output"`
			Reasoning int64 `json:"reasoning"`
			Cache     struct {
				Read  int64 `json:"read"`
				Write int64 `json:"write"`
			} `json:"cache"`
		} `json:"tokens"`
	} `json:"part"`
	Error *struct {
		Name string `json:"name"`
		Data struct {
			Message    string `json:"message"`
			StatusCode int    `json:"statusCode"`
		} `json:"data"`
	} `json:"error"`
	Rejected []string `json:"rejected"` // on "done"
}

// writeTools are opencode's tools that write a file.
var writeTools = map[string]bool{"write": true, "edit": true, "multiedit": true, "patch": true}

// parser accumulates a run's events; it is the backend's proc.Parser.
type parser struct {
	dir      string   // the workspace, for Result.Files
	passed   string   // the model rgit passed with --model, as provider/model ("" for the CLI's default)
	files    []string // paths the write tools completed
	session  string
	step     []string // text parts of the current step
	answer   []string // text parts of the last step that had any
	finished bool     // a step_finish came after the last text
	usage    agents.Usage
	failure  *event
	rejected []string
	sources  []agents.Source // pages the agent read with webfetch
}

// Session returns the session id seen so far.
func (p *parser) Session() string { return p.session }

func (p *parser) Line(b []byte) {
	var e event
	if !proc.DecodeLine(b, &e) {
		return
	}
	if e.SessionID != "" {
		p.session = e.SessionID
	}
	switch e.Type {
	case "step_start":
		p.step = nil
	case "text":
		if e.Part != nil && e.Part.Text != "" {
			p.step = append(p.step, e.Part.Text)
			p.answer, p.finished = p.step, false
		}
	case "step_finish":
		p.finished = true
		if e.Part != nil {
			p.usage.CostUSD += e.Part.Cost
			if tk := e.Part.Tokens; tk != nil {
				// opencode counts cache reads and writes apart from input,
				// and reasoning apart from output; rgit's input includes
				// cached tokens and its output everything generated.
				p.usage.InputTokens += tk.Input + tk.Cache.Read + tk.Cache.Write
				p.usage.OutputTokens += tk.Output + tk.Reasoning
				p.usage.CachedTokens += tk.Cache.Read
			}
		}
	case "tool_use":
		if e.Part != nil && writeTools[e.Part.Tool] && e.Part.State.Status == "completed" {
			p.files = append(p.files, e.Part.State.Input.FilePath)
		}
		if e.Part != nil && e.Part.Tool == "webfetch" && e.Part.State.Status == "completed" && e.Part.State.Input.URL != "" {
			st := e.Part.State
			p.sources = append(p.sources, agents.NewSource(st.Input.URL, st.Title, "webfetch", st.Output, time.UnixMilli(st.Time.End).UTC()))
		}
	case "error":
		p.failure = &e
	case "done":
		p.rejected = append(p.rejected, e.Rejected...)
	}
}

// Finish decides the outcome. opencode exits 0 even when it answered
// nothing (every permission auto-rejected), so success needs an answer
// whose step finished, no error event, no rejected permission and exit 0.
func (p *parser) Finish(res proc.Result, env []string) (agents.Result, error) {
	// opencode's run events name no model (the parts carry no
	// providerID/modelID): the model that ran is the one rgit passed.
	out := agents.Result{SessionID: p.session, Model: p.passed, ExitCode: res.ExitCode, Usage: p.usage, Files: proc.RelFiles(p.dir, p.files), Sources: p.sources}
	out.Usage.Duration = res.Duration
	var kind error
	var msg string
	switch {
	case p.failure != nil:
		msg = "opencode error"
		if f := p.failure.Error; f != nil {
			msg = f.Data.Message
			if msg == "" {
				msg = f.Name
			}
			kind = proc.ClassifyStatus(f.Data.StatusCode, msg)
		}
	case res.ExitCode != 0:
		msg = stderrMessage(res.Stderr)
	case len(p.rejected) > 0:
		msg = "permissions auto-rejected: " + strings.Join(p.rejected, ", ")
	case len(p.answer) == 0:
		msg = "no answer"
		if s := stderrMessage(res.Stderr); s != "" {
			msg += ": " + s
		}
	case !p.finished:
		msg = "the stream ended before the last step finished"
	default:
		out.Text = strings.Join(p.answer, "\n")
		return out, nil
	}
	return out, proc.Fail(Name, kind, msg, res.ExitCode, env)
}

// stderrMessage keeps the last lines of stderr without terminal colours.
func stderrMessage(b []byte) string {
	return proc.StripANSI(proc.LastLines(b, 3))
}
