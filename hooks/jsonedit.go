package hooks

import "errors"

// JSONEntries is planq's part of a JSON settings file: object members it
// owns (an MCP server entry) and array elements it owns (hook groups),
// edited in place so the user's keys, their order and their formatting
// stay as they are.
type JSONEntries struct {
	Path string
	// Members maps a gjson path ("mcpServers.planq") to the value planq sets.
	Members map[string]any
	// Elements maps a gjson path of an array ("hooks.SessionStart") to the
	// element planq appends; an element is planq's when it runs "planq ".
	Elements map[string]any
	// Owns tells planq's array elements from the user's.
	Owns func(raw string) bool
}

// JSONEditor edits JSON settings in place (internal/jsonedit).
type JSONEditor interface {
	Install(data []byte, exists bool, j JSONEntries) ([]byte, error)
	Remove(data []byte, j JSONEntries) (out []byte, remove bool, err error)
}

// JSON is the JSON settings editor. planq-server sets it, and planq hands
// the commands that edit settings (setup, mcp install) to planq-server:
// the JSON library that keeps a user's formatting then costs nothing to
// the planq every hook and agent call starts.
var JSON JSONEditor

var errNoJSONEditor = errors.New("cannot edit JSON settings here: planq-server edits them")

// File implements Edit.
func (j JSONEntries) File() string { return j.Path }

// Install implements Edit.
func (j JSONEntries) Install(data []byte, exists bool) ([]byte, error) {
	if JSON == nil {
		return nil, errNoJSONEditor
	}
	return JSON.Install(data, exists, j)
}

// Remove implements Edit.
func (j JSONEntries) Remove(data []byte) ([]byte, bool, error) {
	if JSON == nil {
		return nil, false, errNoJSONEditor
	}
	return JSON.Remove(data, j)
}
