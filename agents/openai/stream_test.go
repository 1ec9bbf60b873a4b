package openai

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestReadStream(t *testing.T) {
	cases := []struct {
		name    string
		sse     string
		content string
		calls   []toolCall
		in, out int64
		err     error
	}{
		{
			name: "text with usage and keep-alive comments",
			sse: `: ping

data: {"choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"}}]}

event: ignored
data: {"choices":[{"index":0,"delta":{"content":"lo"},"finish_reason":null}]}

data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}

data: {"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":2,"prompt_tokens_details":{"cached_tokens":5}}}

data: [DONE]

`,
			content: "Hello", in: 12, out: 2,
		},
		{
			name: "argument fragments joined by index, calls interleaved",
			sse: `data: {"choices":[{"delta":{"tool_calls":[{"index":0,"id":"a","type":"function","function":{"name":"read_file","arguments":"{\"pa"}}]}}]}
data: {"choices":[{"delta":{"tool_calls":[{"index":1,"id":"b","type":"function","function":{"name":"fetch_url","arguments":"{\"url\":"}}]}}]}
data: {"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"th\":\"x\"}"}}]}}]}
data: {"choices":[{"delta":{"tool_calls":[{"index":1,"function":{"arguments":"\"http://h/\"}"}}]}}]}
data: {"choices":[{"delta":{},"finish_reason":"tool_calls"}]}
data: [DONE]
`,
			calls: []toolCall{
				{ID: "a", Type: "function", Function: functionCall{Name: "read_file", Arguments: `{"path":"x"}`}},
				{ID: "b", Type: "function", Function: functionCall{Name: "fetch_url", Arguments: `{"url":"http://h/"}`}},
			},
		},
		{
			name: "whole calls with distinct ids at one index (Ollama style), no id given",
			sse: `data: {"choices":[{"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"list_files","arguments":"{}"}}]}}]}
data: {"choices":[{"delta":{"tool_calls":[{"index":0,"id":"c2","function":{"name":"read_file","arguments":"{\"path\":\"a\"}"}}]}}]}
data: {"choices":[{"delta":{"tool_calls":[{"function":{"name":"search_files","arguments":"{\"query\":\"q\"}"}}]}}]}
data: {"choices":[{"delta":{},"finish_reason":"tool_calls"}]}
`,
			calls: []toolCall{
				{ID: "c1", Type: "function", Function: functionCall{Name: "list_files", Arguments: `{}`}},
				{ID: "c2", Type: "function", Function: functionCall{Name: "read_file", Arguments: `{"path":"a"}`}},
				{ID: "call_2", Type: "function", Function: functionCall{Name: "search_files", Arguments: `{"query":"q"}`}},
			},
		},
		{
			name:    "cut before finish",
			sse:     "data: {\"choices\":[{\"delta\":{\"content\":\"Part\"}}]}\n\n",
			content: "Part", err: errTruncated,
		},
		{
			name: "error event",
			sse:  "data: {\"error\":{\"message\":\"model crashed\"}}\n\n",
			err:  &statusError{},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := readStream(strings.NewReader(tc.sse))
			switch want := tc.err.(type) {
			case nil:
				if err != nil {
					t.Fatalf("readStream: %v", err)
				}
			case *statusError:
				if !errors.As(err, &want) || !strings.Contains(want.msg, "model crashed") {
					t.Fatalf("err = %v, want the server's message", err)
				}
			default:
				if !errors.Is(err, tc.err) {
					t.Fatalf("err = %v, want %v", err, tc.err)
				}
			}
			if rep.content != tc.content {
				t.Errorf("content = %q, want %q", rep.content, tc.content)
			}
			if !reflect.DeepEqual(rep.calls, tc.calls) {
				t.Errorf("calls = %+v\nwant    %+v", rep.calls, tc.calls)
			}
			if rep.usage.InputTokens != tc.in || rep.usage.OutputTokens != tc.out {
				t.Errorf("usage = %+v, want in %d out %d", rep.usage, tc.in, tc.out)
			}
		})
	}
}

func TestReadJSON(t *testing.T) {
	body := `{"choices":[{"index":0,"message":{"role":"assistant","content":"","tool_calls":[{"id":"k","type":"function","function":{"name":"write_file","arguments":"{\"path\":\"a.md\",\"content\":\"x\"}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":82,"completion_tokens":17}}`
	rep, err := readJSON(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.calls) != 1 || rep.calls[0].ID != "k" || rep.calls[0].Function.Arguments != `{"path":"a.md","content":"x"}` {
		t.Errorf("calls = %+v", rep.calls)
	}
	if rep.usage.InputTokens != 82 || rep.usage.OutputTokens != 17 {
		t.Errorf("usage = %+v", rep.usage)
	}
}

func TestUnfence(t *testing.T) {
	cases := []struct{ in, want string }{
		{"```markdown\n# Title\n\n## Findings\n```", "# Title\n\n## Findings\n"},
		{"  ```\nplain\n```  \n", "plain\n"},
		{"# No fence\n", "# No fence\n"},
		{"```go\na\n```\ntext\n```b\nc\n```", "```go\na\n```\ntext\n```b\nc\n```"},
	}
	for _, tc := range cases {
		if got := unfence(tc.in); got != tc.want {
			t.Errorf("unfence(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
