package mcpserver

import (
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
)

// NamePattern is what phases.ValidateName accepts, for the schemas (the
// tests hold the two to each other).
const NamePattern = `^[a-z0-9][a-z0-9._-]{0,63}$`

// schemaFor infers T's schema and applies rgit's limits to the properties
// T has. A pointer field (optional, with a meaningful zero) is plain in
// the schema: some clients handle a ["null", "integer"] type badly.
func schemaFor[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: schema of %T: %v", *new(T), err)) // the types are this package's own
	}
	plain(s)
	limits(s.Properties)
	return s
}

func plain(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && s.Types[0] == "null" {
		s.Type, s.Types = s.Types[1], nil
	}
	for _, p := range s.Properties {
		plain(p)
	}
	plain(s.Items)
}

// limits sets each known property's bounds, pattern, enum and default.
func limits(props map[string]*jsonschema.Schema) {
	set := func(name string, f func(p *jsonschema.Schema)) {
		if p, ok := props[name]; ok {
			f(p)
		}
	}
	set("topic", func(p *jsonschema.Schema) { p.MinLength = jsonschema.Ptr(1) })
	set("name", func(p *jsonschema.Schema) { p.Pattern = NamePattern })
	set("breadth", func(p *jsonschema.Schema) { bounds(p, 1, maxBreadth, defaultBreadth) })
	set("depth", func(p *jsonschema.Schema) { bounds(p, 0, maxDepth, defaultDepth) })
	set("max_iterations", func(p *jsonschema.Schema) { p.Minimum = jsonschema.Ptr(0.0) })
	set("time_minutes", func(p *jsonschema.Schema) { p.Minimum = jsonschema.Ptr(0.0) })
	set("cost_usd", func(p *jsonschema.Schema) { p.Minimum = jsonschema.Ptr(0.0) })
	set("max_tokens", func(p *jsonschema.Schema) { p.Minimum = jsonschema.Ptr(0.0) })
	set("wait_seconds", func(p *jsonschema.Schema) { bounds(p, 0, maxWait, 0) })
	set("council", func(p *jsonschema.Schema) { p.MinItems = jsonschema.Ptr(1) })
	set("test", func(p *jsonschema.Schema) { p.Default = json.RawMessage("false") })
}

func bounds(p *jsonschema.Schema, lo, hi, def int) {
	p.Minimum, p.Maximum = jsonschema.Ptr(float64(lo)), jsonschema.Ptr(float64(hi))
	p.Default = json.RawMessage(fmt.Sprint(def))
}

// outputSchema is Out's schema; the state, wherever a view nests it (the
// status inside a report, the items of a list), is one of four words.
func outputSchema[Out any]() *jsonschema.Schema {
	s, err := jsonschema.For[Out](nil)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: schema of %T: %v", *new(Out), err))
	}
	plain(s)
	var walk func(*jsonschema.Schema)
	walk = func(s *jsonschema.Schema) {
		if s == nil {
			return
		}
		if p, ok := s.Properties["state"]; ok {
			p.Enum = []any{Running, Done, Failed, Stopped}
		}
		for _, p := range s.Properties {
			walk(p)
		}
		walk(s.Items)
	}
	walk(s)
	return s
}
