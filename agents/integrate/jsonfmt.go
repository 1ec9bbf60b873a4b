package integrate

import (
	"bytes"
	"encoding/json"
	"strings"
)

// object is a JSON object whose members keep the order they are given in,
// so that what rgit writes reads like what the CLIs' own docs show.
type object []kv

type kv struct {
	key string
	val any
}

// format renders v for a file: objects one member per line, indented from
// indent by unit; arrays of plain values, and everything when compact, on
// one line. The first line is not indented: it follows a key.
func format(v any, indent, unit string, compact bool) string {
	var b strings.Builder
	writeValue(&b, v, indent, unit, compact)
	return b.String()
}

func writeValue(b *strings.Builder, v any, indent, unit string, compact bool) {
	switch v := v.(type) {
	case object:
		if len(v) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{")
		for i, m := range v {
			if i > 0 {
				b.WriteString(",")
			}
			if compact {
				if i > 0 {
					b.WriteString(" ")
				}
			} else {
				b.WriteString("\n" + indent + unit)
			}
			b.WriteString(quote(m.key) + ": ")
			writeValue(b, m.val, indent+unit, unit, compact)
		}
		if !compact {
			b.WriteString("\n" + indent)
		}
		b.WriteString("}")
	case []string:
		b.WriteString("[")
		for i, s := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(quote(s))
		}
		b.WriteString("]")
	default:
		b.WriteString(plain(v))
	}
}

// quote is a JSON string without the HTML escaping encoding/json does by
// default: paths and prompts stay readable.
func quote(s string) string { return plain(s) }

func plain(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Only strings, numbers and booleans reach here.
		panic("integrate: cannot encode " + err.Error())
	}
	return strings.TrimSuffix(b.String(), "\n")
}
