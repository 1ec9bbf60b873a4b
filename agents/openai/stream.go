package openai

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/rgit-dev/rgit/agents"
)

// reply is one assistant turn assembled from a response.
type reply struct {
	content string
	calls   []toolCall
	finish  string
	usage   agents.Usage
}

// errTruncated: the stream ended before a finish reason or [DONE].
var errTruncated = errors.New("stream ended before the answer was complete")

// chunk is one streamed event or, with Message set, a whole response.
type chunk struct {
	Choices []struct {
		Delta        delta  `json:"delta"`
		Message      delta  `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage *usage          `json:"usage"`
	Error json.RawMessage `json:"error"`
}

type delta struct {
	Content   string          `json:"content"`
	ToolCalls []toolCallDelta `json:"tool_calls"`
}

type toolCallDelta struct {
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type usage struct {
	PromptTokens        int64 `json:"prompt_tokens"`
	CompletionTokens    int64 `json:"completion_tokens"`
	PromptTokensDetails *struct {
		CachedTokens int64 `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
}

func (u *usage) toUsage() agents.Usage {
	out := agents.Usage{InputTokens: u.PromptTokens, OutputTokens: u.CompletionTokens}
	if u.PromptTokensDetails != nil {
		out.CachedTokens = u.PromptTokensDetails.CachedTokens
	}
	return out
}

// assembler joins streamed deltas. Tool-call fragments are keyed by index;
// a fragment with a new id at a taken index starts a new call, for servers
// that send every call whole at index 0. Builders keep joining linear in
// the number of fragments.
type assembler struct {
	rep     reply
	content strings.Builder
	args    []*strings.Builder // per call, parallel to rep.calls
	slots   map[int]int        // stream index -> position in rep.calls
}

func (as *assembler) add(d delta) {
	as.content.WriteString(d.Content)
	for _, tc := range d.ToolCalls {
		idx := len(as.rep.calls)
		if tc.Index != nil {
			idx = *tc.Index
		}
		pos, ok := as.slots[idx]
		if ok && tc.ID != "" && as.rep.calls[pos].ID != "" && as.rep.calls[pos].ID != tc.ID {
			ok = false
		}
		if !ok {
			as.rep.calls = append(as.rep.calls, toolCall{Type: "function"})
			as.args = append(as.args, &strings.Builder{})
			pos = len(as.rep.calls) - 1
			if as.slots == nil {
				as.slots = map[int]int{}
			}
			as.slots[idx] = pos
		}
		c := &as.rep.calls[pos]
		if tc.ID != "" {
			c.ID = tc.ID
		}
		c.Function.Name += tc.Function.Name
		as.args[pos].WriteString(tc.Function.Arguments)
	}
}

// done finishes the reply and gives every call an id: the tool message
// must reference one.
func (as *assembler) done() reply {
	as.rep.content = as.content.String()
	for i := range as.rep.calls {
		as.rep.calls[i].Function.Arguments = as.args[i].String()
		if as.rep.calls[i].ID == "" {
			as.rep.calls[i].ID = fmt.Sprintf("call_%d", i)
		}
	}
	return as.rep
}

// maxEventBytes bounds one server-sent event line.
const maxEventBytes = 32 << 20

// readStream reads server-sent events until [DONE]. Lines that are not
// "data:" (comments, keep-alive pings, event names) are skipped.
func readStream(r io.Reader) (reply, error) {
	var as assembler
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4<<10), maxEventBytes)
	for sc.Scan() {
		data, ok := bytes.CutPrefix(bytes.TrimSpace(sc.Bytes()), []byte("data:"))
		if !ok {
			continue
		}
		data = bytes.TrimSpace(data)
		if string(data) == "[DONE]" {
			return as.done(), nil
		}
		if err := as.addChunk(data); err != nil {
			return as.done(), err
		}
	}
	if err := sc.Err(); err != nil {
		return as.done(), fmt.Errorf("read stream: %w", err)
	}
	if as.rep.finish == "" {
		return as.done(), errTruncated
	}
	return as.done(), nil
}

func (as *assembler) addChunk(data []byte) error {
	var c chunk
	if err := json.Unmarshal(data, &c); err != nil {
		return fmt.Errorf("decode stream chunk: %w", err)
	}
	if len(c.Error) > 0 && string(c.Error) != "null" {
		return &statusError{status: 500, msg: errorText(c.Error)}
	}
	if c.Usage != nil {
		as.rep.usage = c.Usage.toUsage()
	}
	for _, ch := range c.Choices {
		as.add(ch.Delta)
		as.add(ch.Message)
		if ch.FinishReason != "" {
			as.rep.finish = ch.FinishReason
		}
	}
	return nil
}

// readJSON reads a non-streamed response, for servers that ignore
// "stream": true.
func readJSON(r io.Reader) (reply, error) {
	raw, err := io.ReadAll(r)
	if err != nil {
		return reply{}, fmt.Errorf("read response: %w", err)
	}
	var as assembler
	if err := as.addChunk(raw); err != nil {
		return as.done(), err
	}
	return as.done(), nil
}
