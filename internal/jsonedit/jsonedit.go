package jsonedit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/planq-dev/planq/hooks"
)

// Editor is hooks.JSONEditor: planq-server sets hooks.JSON to it.
type Editor struct{}

var _ hooks.JSONEditor = Editor{}

func parseJSON(data []byte) (string, error) {
	text := string(data)
	if strings.TrimSpace(text) == "" {
		return "{}", nil
	}
	if !json.Valid(data) {
		return "", errors.New("is not valid JSON (comments or trailing commas?)")
	}
	if !gjson.Parse(text).IsObject() {
		return "", errors.New("is not a JSON object")
	}
	return text, nil
}

func compact(raw string) string {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(raw)); err != nil {
		return raw
	}
	return b.String()
}

func mustRaw(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("planq: settings value cannot be encoded: %v", err)) // values are planq's own literals
	}
	return string(data)
}

// Install returns data with planq's part in it; exists says whether the
// file was there.
func (Editor) Install(data []byte, exists bool, j hooks.JSONEntries) ([]byte, error) {
	text, err := parseJSON(data)
	if err != nil {
		return nil, err
	}
	created := !exists || strings.TrimSpace(string(data)) == ""
	// sjson edits the document, not what follows it: keep the trailing
	// white space as it was.
	text, trail := splitTrail(text)
	for _, path := range sortedKeys(j.Members) {
		if text, err = setMember(text, path, mustRaw(j.Members[path])); err != nil {
			return nil, err
		}
	}
	for _, path := range sortedKeys(j.Elements) {
		if text, err = setElement(text, path, mustRaw(j.Elements[path]), j.Owns); err != nil {
			return nil, err
		}
	}
	if created {
		var b bytes.Buffer
		if err := json.Indent(&b, []byte(text), "", "  "); err == nil {
			text, trail = b.String(), "\n"
		}
	}
	return []byte(text + trail), nil
}

// setMember sets the member at path to want, unless it is so already.
func setMember(text, path, want string) (string, error) {
	if cur := gjson.Get(text, path); cur.Exists() && compact(cur.Raw) == want {
		return text, nil
	}
	out, err := sjson.SetRaw(text, path, want)
	if err != nil {
		return text, fmt.Errorf("failed to set %s: %w", path, err)
	}
	return out, nil
}

// setElement makes want planq's one element of the list at path: the
// elements planq owns there go, and want is appended, unless it is there
// already as planq's only one.
func setElement(text, path, want string, owns func(raw string) bool) (string, error) {
	arr := gjson.Get(text, path)
	if arr.Exists() && !arr.IsArray() {
		return text, fmt.Errorf("%s is not a list", path)
	}
	var ours []int
	for i, el := range arr.Array() {
		if owns(el.Raw) {
			ours = append(ours, i)
		}
	}
	if len(ours) == 1 && compact(arr.Array()[ours[0]].Raw) == want {
		return text, nil
	}
	var err error
	for k := len(ours) - 1; k >= 0; k-- {
		if text, err = sjson.Delete(text, fmt.Sprintf("%s.%d", path, ours[k])); err != nil {
			return text, err
		}
	}
	out, err := sjson.SetRaw(text, path+".-1", want)
	if err != nil {
		return text, fmt.Errorf("failed to add to %s: %w", path, err)
	}
	return out, nil
}

func splitTrail(text string) (string, string) {
	body := strings.TrimRight(text, " \t\r\n")
	return body, text[len(body):]
}

// Remove returns data without planq's members and elements, and without
// any list or object that their removal left empty; remove reports that
// nothing else was left.
func (Editor) Remove(data []byte, j hooks.JSONEntries) (out []byte, remove bool, err error) {
	text, err := parseJSON(data)
	if err != nil {
		return nil, false, err
	}
	text, trail := splitTrail(text)
	for _, path := range sortedKeys(j.Members) {
		if gjson.Get(text, path).Exists() {
			if text, err = sjson.Delete(text, path); err != nil {
				return nil, false, err
			}
			text = pruneEmpty(text, parent(path))
		}
	}
	for _, path := range sortedKeys(j.Elements) {
		arr := gjson.Get(text, path)
		els := arr.Array()
		removed := false
		for i := len(els) - 1; i >= 0; i-- {
			if j.Owns(els[i].Raw) {
				if text, err = sjson.Delete(text, fmt.Sprintf("%s.%d", path, i)); err != nil {
					return nil, false, err
				}
				removed = true
			}
		}
		if removed {
			text = pruneEmpty(text, path)
		}
	}
	return []byte(text + trail), compact(text) == "{}", nil
}

// pruneEmpty deletes path, and then its parents, while they are empty.
func pruneEmpty(text, path string) string {
	for path != "" {
		v := gjson.Get(text, path)
		if !v.Exists() || compact(v.Raw) != "{}" && compact(v.Raw) != "[]" {
			return text
		}
		out, err := sjson.Delete(text, path)
		if err != nil {
			return text
		}
		text, path = out, parent(path)
	}
	return text
}

func parent(path string) string {
	if i := strings.LastIndex(path, "."); i >= 0 {
		return path[:i]
	}
	return ""
}

func sortedKeys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }
