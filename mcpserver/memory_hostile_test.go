package mcpserver_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/planq-dev/planq/internal/testkit/testgit"
)

// TestMemoryToolNullParameters sends planq_memory parameters as JSON null
// (issue 36): each is answered in the protocol's voice, as planq memtool
// answers the same command, that the parameter must be of its type; none
// is answered with the schema validator's "<invalid reflect.Value>", and
// nothing is committed. What the schema refuses otherwise it still
// refuses.
func TestMemoryToolNullParameters(t *testing.T) {
	dir := project(t)
	s := connect(t, "--project", dir, "--memory-tool")
	agentDir := filepath.Join(dir, ".planq", "agent")
	if text, isErr := callTool(t, s, "planq_memory", map[string]any{"command": "create", "path": "/memories/s.md", "file_text": "abc\n"}); isErr {
		t.Fatal(text)
	}
	head := func() string { return strings.TrimSpace(testgit.Run(t, agentDir, "rev-parse", "HEAD")) }
	before := head()
	for _, st := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"command": "str_replace", "path": "/memories/s.md", "old_str": nil, "new_str": "x"},
			"Error: Parameter `old_str` must be a string, not null"},
		{map[string]any{"command": "str_replace", "path": "/memories/s.md", "old_str": "abc", "new_str": nil},
			"Error: Parameter `new_str` must be a string, not null"},
		{map[string]any{"command": "view", "path": nil},
			"Error: Parameter `path` must be a string, not null"},
		{map[string]any{"command": "view", "path": "/memories", "view_range": nil},
			"Error: Parameter `view_range` must be a list of two integers, not null"},
		{map[string]any{"command": "view", "path": "/memories/s.md", "view_range": []any{1, nil}},
			"Error: Invalid `view_range`. It should be a list of two integers."},
		{map[string]any{"command": nil, "path": "/memories"},
			"Error: Parameter `command` must be a string, not null"},
		{map[string]any{"command": "view", "path": "/memories", "agent": nil},
			"Error: Parameter `agent` must be a string, not null"},
		{map[string]any{"command": "create", "path": "/memories/k.md", "file_text": "x", "allow_secret": nil},
			"Error: Parameter `allow_secret` must be a boolean, not null"},
		{map[string]any{"command": "str_replace", "path": "/memories/s.md", "old_str": 5, "new_str": "x"},
			"Error: Parameter `old_str` has the wrong type: a string expected"},
	} {
		text, isErr := callTool(t, s, "planq_memory", st.args)
		if !isErr || text != st.want {
			t.Errorf("planq_memory %v: answered (error %t)\n%s\nwant\n%s", st.args, isErr, text, st.want)
		}
	}
	// The schema still has the last word on the rest.
	for _, args := range []map[string]any{
		{"command": "copy", "path": "/memories/s.md"},
		{"command": "view", "path": "/memories", "scope": "team"},
		{"command": "view", "path": "/memories", "agent": 5},
	} {
		if text, isErr := callTool(t, s, "planq_memory", args); !isErr || strings.Contains(text, "invalid reflect.Value") {
			t.Errorf("planq_memory %v: answered (error %t) %s", args, isErr, text)
		}
	}
	if after := head(); after != before {
		t.Errorf("the agent's branch moved from %s to %s", before, after)
	}
	if text, _ := callTool(t, s, "planq_memory", map[string]any{"command": "view", "path": "/memories/s.md"}); !strings.HasSuffix(text, "     1\tabc") {
		t.Errorf("s.md changed:\n%s", text)
	}
}
