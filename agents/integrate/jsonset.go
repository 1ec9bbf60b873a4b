package integrate

import (
	"bytes"
	"fmt"
	"strings"
)

// jsonDoc is a JSON (or JSONC) file being edited. Each set rewrites only
// the span of the value it replaces, or inserts one member, in the style
// of the lines around it; everything else, order, comments and formatting
// included, keeps its bytes.
type jsonDoc struct {
	file     string
	src      []byte
	comments bool
}

// newJSONDoc checks src; an empty (or blank) file is an empty object.
func newJSONDoc(file string, src []byte, comments bool) (*jsonDoc, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		src = []byte("{}\n")
	}
	d := &jsonDoc{file: file, src: src, comments: comments}
	root, err := scanJSON(file, src, comments)
	if err != nil {
		return nil, err
	}
	if root.kind != '{' {
		return nil, d.typeError(root.start, "the top level is not a JSON object")
	}
	return d, nil
}

func (d *jsonDoc) typeError(pos int, format string, args ...any) error {
	line, col := lineCol(d.src, pos)
	return &ParseError{File: d.file, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// set makes path hold v, creating the objects on the way. A member named
// twice is edited where it last appears, the one JSON readers keep.
func (d *jsonDoc) set(path []string, v any) error {
	root, err := scanJSON(d.file, d.src, d.comments)
	if err != nil {
		return err
	}
	obj := root
	for i, key := range path {
		m := lastMember(obj, key)
		if m == nil {
			d.insert(root, obj, key, nest(path[i+1:], v))
			return nil
		}
		if i == len(path)-1 {
			indent, _ := lineIndent(d.src, m.keyStart)
			d.splice(m.value.start, m.value.end, format(v, string(indent), d.unit(root), d.oneLine(obj)))
			return nil
		}
		if m.value.kind != '{' {
			return d.typeError(m.value.start, "%q is not an object", strings.Join(path[:i+1], "."))
		}
		obj = m.value
	}
	return nil
}

func lastMember(obj *jnode, key string) *jmember {
	for i := len(obj.members) - 1; i >= 0; i-- {
		if obj.members[i].key == key {
			return &obj.members[i]
		}
	}
	return nil
}

// nest wraps v in objects, one per remaining key.
func nest(path []string, v any) any {
	for i := len(path) - 1; i >= 0; i-- {
		v = object{{path[i], v}}
	}
	return v
}

// insert adds "key": v as the last member of obj, indented like the
// members before it (one unit deeper than obj when it is empty).
func (d *jsonDoc) insert(root, obj *jnode, key string, v any) {
	unit := d.unit(root)
	base, _ := lineIndent(d.src, obj.start)
	if len(obj.members) == 0 {
		indent := string(base) + unit
		member := "\n" + indent + quote(key) + ": " + format(v, indent, unit, false)
		inner := d.src[obj.start+1 : obj.end-1]
		if len(bytes.TrimSpace(inner)) == 0 {
			d.splice(obj.start+1, obj.end-1, member+"\n"+string(base))
		} else { // only comments inside: keep them after the new member
			d.splice(obj.start+1, obj.start+1, member)
		}
		return
	}
	last := obj.members[len(obj.members)-1]
	if d.oneLine(obj) {
		d.splice(last.value.end, last.value.end, ", "+quote(key)+": "+format(v, "", unit, true))
		return
	}
	indent, _ := lineIndent(d.src, last.keyStart)
	member := "\n" + string(indent) + quote(key) + ": " + format(v, string(indent), unit, false)
	// The comma goes right after the last value; the new member after any
	// comment that ends that value's line.
	at := last.value.end
	rest := d.src[at:]
	if nl := bytes.IndexByte(rest, '\n'); nl >= 0 && isTrailer(rest[:nl]) {
		at += nl
	}
	d.splice(at, at, member)
	d.splice(last.value.end, last.value.end, ",")
}

// isTrailer: only spaces and a // comment.
func isTrailer(b []byte) bool {
	t := bytes.TrimLeft(b, " \t\r")
	return len(t) == 0 || bytes.HasPrefix(t, []byte("//"))
}

// oneLine: obj starts and ends on the same line, so members go inline.
func (d *jsonDoc) oneLine(obj *jnode) bool {
	return obj.end-obj.start > 2 && !bytes.Contains(d.src[obj.start:obj.end], []byte("\n"))
}

// unit is the file's indentation step: how much deeper the top-level
// members sit than the top level itself; two spaces when it cannot tell.
func (d *jsonDoc) unit(root *jnode) string {
	if root != nil && len(root.members) > 0 {
		if in, alone := lineIndent(d.src, root.members[0].keyStart); alone && len(in) > 0 {
			return string(in)
		}
	}
	return "  "
}

func (d *jsonDoc) splice(start, end int, text string) {
	out := make([]byte, 0, len(d.src)+len(text))
	out = append(append(append(out, d.src[:start]...), text...), d.src[end:]...)
	d.src = out
}
