package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// compileSchema compiles schema/export.v1.json with format assertions on,
// so "date-time" is checked too.
func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(Schema()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("export.v1.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("export.v1.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func exportOf(t *testing.T, s *Session) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := RenderJSON(&b, s); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Every fixture's export, and an empty session's, validates against the
// documented schema.
func TestRenderJSONValidates(t *testing.T) {
	sch := compileSchema(t)
	sessions := map[string]*Session{"empty": {}}
	for _, name := range []string{"kitchen", "tides-a", "tides-b", "sync-local"} {
		sessions[name] = loadSession(t, name)
	}
	for name, s := range sessions {
		t.Run(name, func(t *testing.T) {
			v, err := jsonschema.UnmarshalJSON(bytes.NewReader(exportOf(t, s)))
			if err != nil {
				t.Fatal(err)
			}
			if err := sch.Validate(v); err != nil {
				t.Errorf("export does not validate: %v", err)
			}
		})
	}
}

// The schema is strict: it rejects what a careless change to the export
// would produce.
func TestSchemaRejects(t *testing.T) {
	sch := compileSchema(t)
	base := exportOf(t, loadSession(t, "kitchen"))
	tests := []struct {
		name   string
		change func(m map[string]any)
	}{
		{"another version", func(m map[string]any) { m["schema_version"] = 2 }},
		{"a missing key", func(m map[string]any) { delete(m["session"].(map[string]any), "question") }},
		{"an unknown key", func(m map[string]any) { m["session"].(map[string]any)["Question"] = "x" }},
		{"a bad time", func(m map[string]any) { m["session"].(map[string]any)["started_at"] = "yesterday" }},
		{"an unknown citation kind", func(m map[string]any) { m["citations"].([]any)[0].(map[string]any)["kind"] = "footnote" }},
		{"negative tokens", func(m map[string]any) { m["usage"].(map[string]any)["total"].(map[string]any)["input_tokens"] = -1 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m map[string]any
			if err := json.Unmarshal(base, &m); err != nil {
				t.Fatal(err)
			}
			tt.change(m)
			data, _ := json.Marshal(m)
			v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if sch.Validate(v) == nil {
				t.Error("schema accepted it")
			}
		})
	}
}

func TestRenderJSONGolden(t *testing.T) {
	golden(t, "json/kitchen.json", exportOf(t, loadSession(t, "kitchen")))
}

// Citations carry the plan topic whose heading they are under.
func TestTopicOf(t *testing.T) {
	s := loadSession(t, "tides-a")
	var doc struct {
		Citations []struct{ Topic, Key string }
	}
	if err := json.Unmarshal(exportOf(t, s), &doc); err != nil {
		t.Fatal(err)
	}
	topics := map[string]int{}
	for _, c := range doc.Citations {
		topics[c.Topic]++
		if !strings.HasPrefix(c.Key, "https://") {
			t.Errorf("key %q is not the source's URL", c.Key)
		}
	}
	want := map[string]int{"": 2, "Practical Applications": 8, "Practical Applications - Recent Developments": 6,
		"Practical Applications - Comparative Analysis": 7, "Key Mechanisms": 7, "Key Mechanisms - Case Studies": 5}
	for k, v := range want {
		if topics[k] != v {
			t.Errorf("topic %q: %d citations, want %d (all: %v)", k, topics[k], v, topics)
		}
	}
}
