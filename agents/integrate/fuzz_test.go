package integrate

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"
)

// FuzzJSONSet: whatever the file, setting rgit's command either refuses
// it with a ParseError or yields valid JSON that holds the command, keeps
// every other top-level value as it was, and does not change when set
// again. Inputs the scanner accepts must be inputs encoding/json accepts.
func FuzzJSONSet(f *testing.F) {
	for _, seed := range []string{
		"", "{}", "[]", `{"a": 1}`, "{\n  \"mcpServers\": {}\n}\n", `{"mcpServers": {"rgit": {"command": "old"}}}`,
		"{\n\t\"mcpServers\": {\n\t\t\"x\": {\"command\": \"y\"}\n\t},\n\t\"z\": [1, {\"k\": null}]\n}",
		`{"mcpServers": []}`, `{"a": "\u00e9\n"}`, `{"a": 1,}`, `{"mcpServers": {"rgit": 1}}`, `{"a":{"a":{"a":{}}}}`,
	} {
		f.Add([]byte(seed))
	}
	path := []string{"mcpServers", "rgit", "command"}
	f.Fuzz(func(t *testing.T, src []byte) {
		d, err := newJSONDoc("f.json", src, false)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a ParseError", err)
			}
			return
		}
		var before map[string]any
		if err := json.Unmarshal(d.src, &before); err != nil {
			t.Fatalf("scanner accepted what encoding/json refuses: %v\n%q", err, src)
		}
		if err := d.set(path, "/bin/rgit"); err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("set: %v is not a ParseError", err)
			}
			return
		}
		var after map[string]any
		if err := json.Unmarshal(d.src, &after); err != nil {
			t.Fatalf("invalid JSON written: %v\n%s", err, d.src)
		}
		servers, _ := after["mcpServers"].(map[string]any)
		rgit, _ := servers["rgit"].(map[string]any)
		if rgit["command"] != "/bin/rgit" {
			t.Fatalf("command not set:\n%s", d.src)
		}
		for k, v := range before {
			if k != "mcpServers" && !reflect.DeepEqual(after[k], v) {
				t.Fatalf("%q changed from %v to %v", k, v, after[k])
			}
		}
		once := string(d.src)
		if err := d.set(path, "/bin/rgit"); err != nil || string(d.src) != once {
			t.Fatalf("second set changed the file (%v):\n%s\nthen:\n%s", err, once, d.src)
		}
	})
}

// FuzzTOMLTable: on any file that parses, the table edit either refuses
// with a ParseError or writes a file that parses, holds rgit's table,
// keeps every other top-level value, and does not change when run again.
func FuzzTOMLTable(f *testing.F) {
	for _, seed := range []string{
		"", "a = 1\n", "[mcp_servers.rgit]\ncommand = \"old\"\n[x]\ny = 2\n", "s = '''\n[mcp_servers.rgit]\n'''\n",
		"arr = [\n  \"[mcp_servers.rgit]\",\n]\n", "[mcp_servers]\nrgit = {}\n", "[[mcp_servers.rgit]]\n",
		"[ mcp_servers . \"rgit\" ] # c\nargs = []\n\n# next\n[b]\n", "x = \"\"\"\\\"\"\"\"\n",
	} {
		f.Add([]byte(seed))
	}
	table := codexTable(Options{CLI: Codex, Command: "/bin/rgit", Args: []string{"mcp"}})
	f.Fuzz(func(t *testing.T, src []byte) {
		before, err := decodeTOML("c.toml", src)
		if err != nil {
			return
		}
		out, err := setTOMLTable("c.toml", src, table)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a ParseError", err)
			}
			return
		}
		after, err := decodeTOML("c.toml", out)
		if err != nil {
			t.Fatalf("wrote a file that does not parse: %v\n%s", err, out)
		}
		for k, v := range before {
			// %#v compares a NaN with itself, which DeepEqual does not.
			if k != "mcp_servers" && !reflect.DeepEqual(after[k], v) && fmt.Sprintf("%T %#v", after[k], after[k]) != fmt.Sprintf("%T %#v", v, v) {
				t.Fatalf("%q changed from %v to %v\n%s", k, v, after[k], out)
			}
		}
		again, err := setTOMLTable("c.toml", out, table)
		if err != nil || string(again) != string(out) {
			t.Fatalf("second run differs (%v):\n%s\nthen:\n%s", err, out, again)
		}
	})
}
