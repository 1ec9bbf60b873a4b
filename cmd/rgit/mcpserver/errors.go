package mcpserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/rgit-dev/rgit/phases"
)

// BadInputError is an argument the caller must fix. Like rgit's usage
// errors it has a message and a hint.
type BadInputError struct {
	Msg  string
	Hint string
}

func (e *BadInputError) Error() string { return e.Msg }

func badInput(hint, format string, args ...any) error {
	return &BadInputError{Msg: fmt.Sprintf(format, args...), Hint: hint}
}

// errorText is what a tool error says: the lines rgit's CLI prints for
// the same error, "rgit: error: ..." and, when there is one, "rgit: hint:
// ...".
func errorText(err error) string {
	text := "rgit: error: " + oneLine(err.Error())
	if hint := hintOf(err); hint != "" {
		text += "\nrgit: hint: " + oneLine(hint)
	}
	return text
}

// hintOf finds the hint of the error kinds rgit has.
func hintOf(err error) string {
	var be *BadInputError
	var pe *phases.BadInputError
	var hinter interface{ Hint() string }
	switch {
	case errors.As(err, &be):
		return be.Hint
	case errors.As(err, &pe):
		return pe.Hint
	case errors.As(err, &hinter):
		return hinter.Hint()
	case errors.Is(err, phases.ErrLocked):
		return "it is running: wait with research_status, or stop it with research_cancel"
	}
	return ""
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// argumentError turns a decoding error into the argument to fix.
func argumentError(tool string, err error) error {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		return badInput("see the input schema of "+tool, "invalid argument %q: want %s, got %s", te.Field, jsonType(te.Type.Kind().String()), te.Value)
	case errors.As(err, &se):
		return badInput("pass the arguments as one JSON object", "arguments of %s are not JSON: %v", tool, err)
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return badInput("see the input schema of "+tool, "unknown argument %s", name)
	}
	return badInput("pass the arguments as one JSON object", "invalid arguments of %s: %v", tool, err)
}

// jsonType names a Go kind as JSON calls it.
func jsonType(kind string) string {
	switch {
	case strings.HasPrefix(kind, "int"), strings.HasPrefix(kind, "uint"):
		return "an integer"
	case strings.HasPrefix(kind, "float"):
		return "a number"
	case kind == "bool":
		return "true or false"
	case kind == "slice":
		return "an array"
	case kind == "ptr":
		return "an integer"
	}
	return "a " + kind
}
