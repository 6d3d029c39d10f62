package memtool

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/planq-dev/planq/planqerr"
)

// Command is one memory-tool command, as the model sends it. A parameter
// the command needs is a pointer where its zero value is meaningful (an
// empty file_text, new_str or insert_text; insert_line 0), so that a
// missing one is told from an empty one.
type Command struct {
	Command    string  `json:"command"`
	Path       string  `json:"path,omitempty"`
	ViewRange  []int   `json:"view_range,omitempty"`
	FileText   *string `json:"file_text,omitempty"`
	OldStr     *string `json:"old_str,omitempty"`
	NewStr     *string `json:"new_str,omitempty"`
	InsertLine *int    `json:"insert_line,omitempty"`
	InsertText *string `json:"insert_text,omitempty"`
	OldPath    string  `json:"old_path,omitempty"`
	NewPath    string  `json:"new_path,omitempty"`
}

// MaxCommandSize bounds the JSON of one command: a file's text at most a
// record's 64 KiB, escaped (up to six bytes a character), and room for
// the rest.
const MaxCommandSize = 6*64<<10 + 4<<10

// Parse reads one command from JSON: the object a tool_use block's input
// holds. Fields it does not know are left aside (an application may pass
// the block's input as it came); a value of the wrong type, a parameter
// sent as null, or anything that is not one JSON object, is refused with
// an answer that says so.
func Parse(data []byte) (Command, error) {
	var c Command
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&c); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return Command{}, refusef(planqerr.Invalid, "Error: Parameter `%s` has the wrong type: %s expected", te.Field, jsonType(te.Type.String()))
		}
		return Command{}, refusef(planqerr.Invalid, "Error: The command is not a JSON object: %v", err)
	}
	if dec.More() {
		return Command{}, refusef(planqerr.Invalid, "Error: The command is not a JSON object: more follows the first value")
	}
	if err := refuseNull(data); err != nil {
		return Command{}, err
	}
	if c.Command == "" {
		return Command{}, refusef(planqerr.Invalid, "Error: Parameter `command` is required: one of view, create, str_replace, insert, delete, rename")
	}
	return c, nil
}

// refuseNull refuses a protocol parameter that data (a JSON object) holds
// as null. Decoded, null is a parameter left out, and the answer would be
// that it is missing, or a default taken, when the model did send it.
func refuseNull(data []byte) error {
	var raw map[string]json.RawMessage
	if json.Unmarshal(data, &raw) != nil {
		return nil // not an object: Parse says so
	}
	t := reflect.TypeFor[Command]()
	for i := range t.NumField() {
		field := t.Field(i)
		name, _, _ := strings.Cut(field.Tag.Get("json"), ",")
		v, ok := raw[name]
		if !ok {
			continue
		}
		if isNull(v) {
			return nullParam(name, jsonType(field.Type.String()))
		}
		var elems []json.RawMessage
		if field.Type.Kind() == reflect.Slice && json.Unmarshal(v, &elems) == nil && slices.ContainsFunc(elems, isNull) {
			return viewRangeShape() // view_range, the one list: [1, null] is no range
		}
	}
	return nil
}

func isNull(v json.RawMessage) bool { return string(bytes.TrimSpace(v)) == "null" }

// jsonType names a Go type as JSON does.
func jsonType(goType string) string {
	switch goType {
	case "int", "*int":
		return "an integer"
	case "string", "*string":
		return "a string"
	case "[]int":
		return "a list of two integers"
	}
	return fmt.Sprintf("a value of type %s", goType)
}
