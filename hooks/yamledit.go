package hooks

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// YAMLListItem is planq's entry in a list of a YAML file (Aider's
// .aider.conf.yml read: list). Every line planq adds carries a marker
// comment, so removing them restores the file byte for byte.
type YAMLListItem struct {
	Path string
	Key  string
	Item string
}

const yamlMarker = "# planq-managed"

// File implements Edit.
func (y YAMLListItem) File() string { return y.Path }

func yamlDoc(data []byte) (map[string]any, error) {
	var v map[string]any
	if err := yaml.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("is not valid YAML: %w", err)
	}
	if v == nil {
		v = map[string]any{}
	}
	return v, nil
}

// Install implements Edit.
func (y YAMLListItem) Install(data []byte, exists bool) ([]byte, error) {
	doc, err := yamlDoc(data)
	if err != nil {
		return nil, err
	}
	text := string(data)
	if strings.Contains(text, y.Item+"  "+yamlMarker) {
		return data, nil
	}
	item := fmt.Sprintf("- %s  %s", y.Item, yamlMarker)
	keyLine := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(y.Key) + `:[ \t]*(#.*)?$`)
	switch v, ok := doc[y.Key]; {
	case !ok:
		if exists && text != "" && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		text += fmt.Sprintf("%s:  %s\n  %s\n", y.Key, yamlMarker, item)
	case isList(v) && keyLine.MatchString(text):
		loc := keyLine.FindStringIndex(text)
		rest := text[loc[1]:]
		indent := "  "
		if m := regexp.MustCompile(`^\n([ \t]*)- `).FindStringSubmatch(rest); m != nil {
			indent = m[1]
		}
		text = text[:loc[1]] + "\n" + indent + item + rest
	default:
		return nil, fmt.Errorf("%s: is not a block list planq can add to; add %q to it by hand", y.Key, y.Item)
	}
	after, err := yamlDoc([]byte(text))
	if err != nil {
		return nil, errors.New("would not stay valid YAML with planq's entry added")
	}
	if list, ok := after[y.Key].([]any); !ok || !slices.Contains(list, any(y.Item)) {
		return nil, fmt.Errorf("%s: planq's entry did not land in the list", y.Key)
	}
	return []byte(text), nil
}

func isList(v any) bool {
	_, ok := v.([]any)
	return ok
}

// Remove implements Edit: drop every line planq marked.
func (y YAMLListItem) Remove(data []byte) ([]byte, bool, error) {
	lines := strings.SplitAfter(string(data), "\n")
	var kept []string
	for _, l := range lines {
		if !strings.Contains(l, yamlMarker) {
			kept = append(kept, l)
		}
	}
	out := strings.Join(kept, "")
	return []byte(out), strings.TrimSpace(out) == "", nil
}
