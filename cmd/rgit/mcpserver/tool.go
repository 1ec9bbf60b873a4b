package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rgit-dev/rgit/agents/redact"
)

// runFunc is a tool's work: its typed answer, and the same answer as text
// for the model to read.
type runFunc[In, Out any] func(ctx context.Context, in In) (Out, string, error)

// addTool registers a tool with the low-level handler, not mcp.AddTool:
// the SDK's own argument validation would answer bad input with schema
// jargon, where rgit answers with the message its CLI prints. The schema
// still tells clients the limits; decode refuses unknown arguments and
// wrong types, and the run function checks the rest.
func addTool[In, Out any](srv *mcp.Server, red *redact.Redactor, t *mcp.Tool, run runFunc[In, Out]) {
	t.InputSchema = schemaFor[In]()
	t.OutputSchema = outputSchema[Out]()
	srv.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in In
		if err := decode(req.Params.Arguments, &in); err != nil {
			return failure(red, argumentError(t.Name, err)), nil
		}
		out, text, err := run(ctx, in)
		if err != nil {
			return failure(red, err), nil
		}
		structured, err := redactJSON(red, out)
		if err != nil {
			return failure(red, fmt.Errorf("encode %s result: %w", t.Name, err)), nil
		}
		return &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: red.String(text)}},
			StructuredContent: structured,
		}, nil
	})
}

// decode reads the arguments strictly: an absent or null object is
// empty, an unknown key or a wrong type is an error.
func decode(raw json.RawMessage, v any) error {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		raw = json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("more than one JSON value")
	}
	return nil
}

// failure is a tool error: IsError, and the lines the CLI would print.
func failure(red *redact.Redactor, err error) *mcp.CallToolResult {
	res := &mcp.CallToolResult{}
	res.SetError(fmt.Errorf("%s", red.String(errorText(err))))
	return res
}

// redactJSON is v as JSON with the secrets taken out of every string,
// keys included. Redacting the decoded values, not the encoded text, keeps
// the JSON valid whatever a secret contains.
func redactJSON(red *redact.Redactor, v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var tree any
	if err := json.Unmarshal(b, &tree); err != nil {
		return nil, err
	}
	return scrub(red, tree), nil
}

func scrub(red *redact.Redactor, v any) any {
	switch v := v.(type) {
	case string:
		return red.String(v)
	case []any:
		for i := range v {
			v[i] = scrub(red, v[i])
		}
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[red.String(k)] = scrub(red, x)
		}
		return out
	}
	return v
}
