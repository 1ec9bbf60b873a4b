package phases

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
)

// state.json grows with the session: its per-topic maps and the phase
// history are most of its 40 KB after 160 phases, and encoding/json spent
// about 0.6 ms a commit on them (reflection over every map entry, sorting
// the keys as reflect values, then a second pass to indent), the largest
// cost of a commit that grew with the session. marshalSpliced encodes
// those fields with plain loops and lets encoding/json do the rest of the
// state, now a few hundred bytes: each big field is swapped for a one-entry
// stand-in, and the stand-in's bytes, found at the field's top-level key,
// are replaced by the field's own. The result is byte for byte
// json.MarshalIndent's (TestStateMarshalMatchesEncodingJSON); anything
// unexpected falls back to it.

// The stand-ins, as encoding/json writes them at depth 1.
var (
	stubStrings   = []byte("[\n    \"\"\n  ]")
	stubStringMap = []byte("{\n    \"\": \"\"\n  }")
	stubIntMap    = []byte("{\n    \"\": 0\n  }")
)

// marshalSpliced is marshalPlain's bytes; ok is false when it could not
// vouch for them.
func (s *State) marshalSpliced() ([]byte, bool) {
	c := *s
	type field struct {
		key, stub []byte
		value     func(b []byte) []byte
	}
	var fields []field
	strMap := func(key string, m map[string]string, set func(map[string]string)) {
		if len(m) > 0 {
			set(map[string]string{"": ""})
			fields = append(fields, field{[]byte("\n  \"" + key + "\": "), stubStringMap, func(b []byte) []byte { return appendStringMap(b, m) }})
		}
	}
	strMap("slugs", s.Slugs, func(m map[string]string) { c.Slugs = m })
	strMap("summaries", s.Summaries, func(m map[string]string) { c.Summaries = m })
	strMap("agent_sessions", s.AgentSession, func(m map[string]string) { c.AgentSession = m })
	if len(s.Passes) > 0 {
		c.Passes = map[string]int{"": 0}
		fields = append(fields, field{[]byte("\n  \"passes\": "), stubIntMap, func(b []byte) []byte { return appendIntMap(b, s.Passes) }})
	}
	if len(s.PhaseHistory) > 0 {
		c.PhaseHistory = []string{""}
		fields = append(fields, field{[]byte("\n  \"phase_history\": "), stubStrings, func(b []byte) []byte { return appendStrings(b, s.PhaseHistory) }})
	}
	if len(fields) == 0 {
		return nil, false
	}
	doc := c.marshalPlain()
	type at struct {
		pos int
		f   field
	}
	var spots []at
	for _, f := range fields {
		i := bytes.Index(doc, f.key)
		if i < 0 || !bytes.HasPrefix(doc[i+len(f.key):], f.stub) || bytes.Contains(doc[i+1:], f.key) {
			return nil, false
		}
		spots = append(spots, at{i + len(f.key), f})
	}
	slices.SortFunc(spots, func(a, b at) int { return a.pos - b.pos })
	out := make([]byte, 0, len(doc)+32*1024)
	last := 0
	for _, sp := range spots {
		out = append(out, doc[last:sp.pos]...)
		out = sp.f.value(out)
		last = sp.pos + len(sp.f.stub)
	}
	return append(out, doc[last:]...), true
}

// appendStringMap appends a non-empty map as encoding/json indents it at
// depth 1: keys sorted, one entry a line.
func appendStringMap(b []byte, m map[string]string) []byte {
	b = append(b, '{')
	for i, k := range slices.Sorted(maps.Keys(m)) {
		b = entrySep(b, i)
		b = appendJSONString(b, k)
		b = append(b, ": "...)
		b = appendJSONString(b, m[k])
	}
	return append(b, "\n  }"...)
}

// appendIntMap is appendStringMap for integer values.
func appendIntMap(b []byte, m map[string]int) []byte {
	b = append(b, '{')
	for i, k := range slices.Sorted(maps.Keys(m)) {
		b = entrySep(b, i)
		b = appendJSONString(b, k)
		b = append(b, ": "...)
		b = strconv.AppendInt(b, int64(m[k]), 10)
	}
	return append(b, "\n  }"...)
}

// appendStrings appends a non-empty list of strings indented at depth 1.
func appendStrings(b []byte, xs []string) []byte {
	b = append(b, '[')
	for i, x := range xs {
		b = entrySep(b, i)
		b = appendJSONString(b, x)
	}
	return append(b, "\n  ]"...)
}

// entrySep starts the i-th entry of a collection at depth 1.
func entrySep(b []byte, i int) []byte {
	if i > 0 {
		b = append(b, ',')
	}
	return append(b, "\n    "...)
}

// appendJSONString quotes s as encoding/json does. Printable ASCII other
// than its escaped characters (quote, backslash and the HTML-sensitive
// <, > and &) stands for itself; anything else is left to encoding/json.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always encodes
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
