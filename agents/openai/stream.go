package openai

import (
	"bufio"
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
// that send every call whole at index 0.
type assembler struct {
	rep   reply
	slots map[int]int // stream index -> position in rep.calls
}

func (as *assembler) add(d delta) {
	as.rep.content += d.Content
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
		c.Function.Arguments += tc.Function.Arguments
	}
}

// done gives every call an id: the tool message must reference one.
func (as *assembler) done() reply {
	for i := range as.rep.calls {
		if as.rep.calls[i].ID == "" {
			as.rep.calls[i].ID = fmt.Sprintf("call_%d", i)
		}
	}
	return as.rep
}

// readStream reads server-sent events until [DONE]. Lines that are not
// "data:" (comments, keep-alive pings, event names) are skipped.
func readStream(r io.Reader) (reply, error) {
	var as assembler
	sawDone := false
	br := bufio.NewReaderSize(r, 64<<10)
	for !sawDone {
		line, err := br.ReadString('\n')
		if data, ok := strings.CutPrefix(strings.TrimSpace(line), "data:"); ok {
			data = strings.TrimSpace(data)
			if data == "[DONE]" {
				sawDone = true
				break
			}
			if perr := as.addChunk(data); perr != nil {
				return as.done(), perr
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return as.done(), fmt.Errorf("read stream: %w", err)
		}
	}
	if !sawDone && as.rep.finish == "" {
		return as.done(), errTruncated
	}
	return as.done(), nil
}

func (as *assembler) addChunk(data string) error {
	var c chunk
	if err := json.Unmarshal([]byte(data), &c); err != nil {
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
	if err := as.addChunk(string(raw)); err != nil {
		return as.done(), err
	}
	return as.done(), nil
}
