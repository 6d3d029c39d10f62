package mcpserver_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planq-dev/planq/internal/testkit/testgit"
)

// TestMemoryToolOverMCP drives planq_memory from an MCP client: each answer
// is the protocol's exact text, a refusal is a tool error with that text
// alone, every change is one commit in the agent's worktree, and the CLI's
// planq memtool answers the same command with the same text.
func TestMemoryToolOverMCP(t *testing.T) {
	dir := project(t)
	s := connect(t, "--project", dir, "--memory-tool")
	agentDir := filepath.Join(dir, ".planq", "agent")
	commits := func() string { return strings.TrimSpace(testgit.Run(t, agentDir, "rev-list", "--count", "HEAD")) }
	steps := []struct {
		args    map[string]any
		want    string
		isError bool
		commits int
	}{
		{map[string]any{"command": "view", "path": "/memories"},
			"Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n0B\t/memories", false, 0},
		{map[string]any{"command": "create", "path": "/memories/repo/notes.md", "file_text": "Meeting notes:\n- timeline\n"},
			"File created successfully at: /memories/repo/notes.md", false, 1},
		{map[string]any{"command": "create", "path": "/memories/repo/notes.md", "file_text": "again"},
			"Error: File /memories/repo/notes.md already exists", true, 0},
		{map[string]any{"command": "str_replace", "path": "/memories/repo/notes.md", "old_str": "timeline", "new_str": "next steps"},
			"The memory file has been edited. Here is the snippet showing the change (with line numbers):\n     1\tMeeting notes:\n     2\t- next steps", false, 1},
		{map[string]any{"command": "str_replace", "path": "/memories/repo/notes.md", "old_str": "absent", "new_str": "x"},
			"No replacement was performed, old_str `absent` did not appear verbatim in /memories/repo/notes.md.", true, 0},
		{map[string]any{"command": "insert", "path": "/memories/repo/notes.md", "insert_line": 0, "insert_text": "# Notes\n"},
			"The file /memories/repo/notes.md has been edited.", false, 1},
		{map[string]any{"command": "insert", "path": "/memories/repo/notes.md", "insert_line": 7, "insert_text": "x"},
			"Error: Invalid `insert_line` parameter: 7. It should be within the range of lines of the file: [0, 3]", true, 0},
		{map[string]any{"command": "view", "path": "/memories/repo/notes.md", "view_range": []int{2, -1}},
			"Here's the content of /memories/repo/notes.md with line numbers:\n     2\tMeeting notes:\n     3\t- next steps", false, 0},
		{map[string]any{"command": "view", "path": "/memories/../.git/config"},
			"Error: Path /memories/../.git/config would escape /memories directory", true, 0},
		{map[string]any{"command": "rename", "old_path": "/memories/repo/notes.md", "new_path": "/memories/session/notes.md"},
			"Successfully renamed /memories/repo/notes.md to /memories/session/notes.md", false, 1},
		{map[string]any{"command": "create", "path": "/memories/k.md", "file_text": "AKIAIOSFODNN7EXAMPLE"},
			"Error: /memories/k.md: refusing to store what looks like a credential (AWS access key id, line 1)\n" +
				"hint: remove the credential; if it is not one, allow it: --allow-secret on the command line, allow_secret over MCP", true, 0},
		{map[string]any{"command": "create", "path": "/memories/k.md", "file_text": "AKIAIOSFODNN7EXAMPLE", "allow_secret": true},
			"File created successfully at: /memories/k.md", false, 1},
		{map[string]any{"command": "delete", "path": "/memories/session"},
			"Successfully deleted /memories/session", false, 1},
		{map[string]any{"command": "delete", "path": "/memories/session"},
			"Error: The path /memories/session does not exist", true, 0},
		{map[string]any{"command": "create", "path": "/memories/x.md"},
			"Error: Parameter `file_text` is required for command: create", true, 0},
	}
	for _, st := range steps {
		before := commits()
		text, isErr := callTool(t, s, "planq_memory", st.args)
		if text != st.want || isErr != st.isError {
			t.Errorf("planq_memory %v: answered (error %t)\n%s\nwant (error %t)\n%s", st.args, isErr, text, st.isError, st.want)
		}
		after := commits()
		if want := atoi(before) + st.commits; atoi(after) != want {
			t.Errorf("planq_memory %v: %s commits, want %d", st.args, after, want)
		}
		if status := testgit.Run(t, agentDir, "status", "--porcelain"); status != "" {
			t.Errorf("planq_memory %v left the worktree unclean:\n%s", st.args, status)
		}
	}
	// The CLI answers as the MCP tool does.
	for _, args := range []map[string]any{
		{"command": "view", "path": "/memories"},
		{"command": "view", "path": "/memories/k.md"},
		{"command": "delete", "path": "/memories/nothing"},
	} {
		mcpText, _ := callTool(t, s, "planq_memory", args)
		in, _ := json.Marshal(args)
		cmd := planqCmd("memtool")
		cmd.Dir = dir
		cmd.Stdin = bytes.NewReader(in)
		out, err := cmd.Output()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatal(err)
		}
		if got := strings.TrimSuffix(string(out), "\n"); got != mcpText {
			t.Errorf("%s: planq memtool answered\n%s\nplanq_memory answered\n%s", in, got, mcpText)
		}
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

// TestMemoryToolUserScope drives planq_memory with scope user: the
// commands apply to the user layer's memories/, on its global branch
// (made on first use), one commit per change and none for a view or a
// refusal, and planq memtool --scope user sees what it wrote.
func TestMemoryToolUserScope(t *testing.T) {
	dir := project(t)
	s := connect(t, "--project", dir, "--memory-tool")
	userRepo := filepath.Join(os.Getenv("PLANQ_HOME"), "state-repos", "_user.git")
	agentDir := filepath.Join(dir, ".planq", "agent")
	agentCommits := strings.TrimSpace(testgit.Run(t, agentDir, "rev-list", "--count", "HEAD"))
	text, isErr := callTool(t, s, "planq_memory", map[string]any{"scope": "user", "command": "view", "path": "/memories"})
	if isErr || text != "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n0B\t/memories" {
		t.Fatalf("a first view: (error %t)\n%s", isErr, text)
	}
	commits := func() int { return atoi(strings.TrimSpace(testgit.Run(t, userRepo, "rev-list", "--count", "global"))) }
	start := commits()
	steps := []struct {
		args    map[string]any
		want    string
		isError bool
		commits int
	}{
		{map[string]any{"scope": "user", "command": "create", "path": "/memories/prefs.md", "file_text": "Answers in British English.\n"},
			"File created successfully at: /memories/prefs.md", false, 1},
		{map[string]any{"scope": "user", "command": "create", "path": "/memories/prefs.md", "file_text": "again"},
			"Error: File /memories/prefs.md already exists", true, 0},
		{map[string]any{"scope": "user", "command": "str_replace", "path": "/memories/prefs.md", "old_str": "British", "new_str": "Australian"},
			"The memory file has been edited. Here is the snippet showing the change (with line numbers):\n     1\tAnswers in Australian English.", false, 1},
		{map[string]any{"scope": "user", "command": "view", "path": "/memories/prefs.md"},
			"Here's the content of /memories/prefs.md with line numbers:\n     1\tAnswers in Australian English.", false, 0},
		{map[string]any{"scope": "user", "command": "view", "path": "/memories/../x"},
			"Error: Path /memories/../x would escape /memories directory", true, 0},
	}
	for _, st := range steps {
		before := commits()
		text, isErr := callTool(t, s, "planq_memory", st.args)
		if text != st.want || isErr != st.isError {
			t.Errorf("planq_memory %v: answered (error %t)\n%s\nwant (error %t)\n%s", st.args, isErr, text, st.isError, st.want)
		}
		if got := commits(); got != before+st.commits {
			t.Errorf("planq_memory %v: %d commits on the user layer's global, want %d", st.args, got, before+st.commits)
		}
	}
	if got := testgit.Run(t, userRepo, "show", "global:memories/prefs.md"); got != "Answers in Australian English." {
		t.Errorf("the user layer's global holds %q", got)
	}
	if got := commits(); got != start+2 {
		t.Errorf("%d commits, want %d", got, start+2)
	}
	// The agent's own memories/ is untouched.
	if got := strings.TrimSpace(testgit.Run(t, agentDir, "rev-list", "--count", "HEAD")); got != agentCommits {
		t.Errorf("the agent's branch moved: %s commits, was %s", got, agentCommits)
	}
	if text, isErr := callTool(t, s, "planq_memory", map[string]any{"command": "view", "path": "/memories/prefs.md"}); !isErr ||
		text != "The path /memories/prefs.md does not exist. Please provide a valid path." {
		t.Errorf("the agent's scope sees the user's memory: (error %t) %s", isErr, text)
	}
	// The CLI reads what the MCP tool wrote.
	cmd := planqCmd("memtool", "--scope", "user")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(`{"command": "view", "path": "/memories/prefs.md"}`)
	out, err := cmd.Output()
	if err != nil || !strings.Contains(string(out), "Answers in Australian English.") {
		t.Errorf("planq memtool --scope user: %s, %v", out, err)
	}
	if text, isErr := callTool(t, s, "planq_memory", map[string]any{"scope": "team", "command": "view", "path": "/memories"}); !isErr {
		t.Errorf("scope team accepted: %s", text)
	}
}
