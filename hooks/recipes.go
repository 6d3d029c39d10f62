package hooks

import (
	"fmt"
	"maps"
	"path/filepath"
	"sort"
	"strings"

	"github.com/planq-dev/planq/planqerr"
)

// Snippet is what planq adds to an agent's instructions file (AGENTS.md,
// CLAUDE.md, GEMINI.md, …): short, and pointing at planq prime.
const Snippet = `## Project memory: planq

This project keeps its agents' memory in git with planq. At the start of a
session, and after a compaction, read it: ` + "`planq prime`" + ` (hooks may have done it
already). Before answering about prior work, decisions or conventions, search
it: ` + "`planq log --all`" + `, ` + "`planq context show`" + `, or the planq_search MCP tool.

Record as you work; each command commits at once:
- ` + "`planq log add \"what you did\" --type implement`" + `
- ` + "`planq learn \"insight\" --type convention|pattern|failure|guide --domain NAME`" + `
- ` + "`planq decide \"choice\" --over a,b --because \"why\"`" + `
- ` + "`planq handoff \"what the next session should pick up\"`" + `
`

// Target says where a recipe writes.
type Target struct {
	// Root is the project's code checkout.
	Root string
	// Home is the user's home directory, for --global.
	Home string
	// Global writes the user's settings instead of the project's.
	Global bool
	// Local writes Claude's settings.local.json (not committed).
	Local bool
	// MCPOnly limits the recipe to registering the MCP server.
	MCPOnly bool
}

// SetupAgents lists the agents planq sets up, in help order.
var SetupAgents = []string{"claude", "codex", "gemini", "cursor", "opencode", "windsurf", "copilot", "aider"}

// mcpCommand is how agents start planq's MCP server.
var mcpCommand = []string{"planq", "mcp", "serve"}

// mcpArgs are the server's arguments: the project directory, where the agent
// can name it in its configuration (its variable, expanded by the agent),
// so that the server never depends on the directory the agent starts it in.
func mcpArgs(projectDir string) []string {
	args := append([]string(nil), mcpCommand[1:]...)
	if projectDir != "" {
		args = append(args, "--project", projectDir)
	}
	return args
}

// Project directories as agents expand them in their MCP configuration.
const (
	claudeProjectDir = "${CLAUDE_PROJECT_DIR:-.}" // Claude Code expands ${VAR:-default} in .mcp.json
	editorProjectDir = "${workspaceFolder}"       // Cursor and VS Code expand it in mcp.json
)

// ownsHook tells planq's hook groups from the user's.
func ownsHook(raw string) bool { return strings.Contains(raw, "planq hook ") }

// Recipe returns the edits that set agent up.
func Recipe(agent string, t Target) ([]Edit, error) {
	recipe, ok := recipes[agent]
	if !ok {
		return nil, planqerr.New(planqerr.Invalid, `agent "`+agent+`"`, "is not an agent planq sets up").
			WithHint("one of: %s", strings.Join(SetupAgents, ", "))
	}
	base := t.Root
	if t.Global {
		base = t.Home
	}
	edits, mcp := recipe(base, t)
	if t.MCPOnly {
		if len(mcp) == 0 {
			return nil, planqerr.New(planqerr.Invalid, `agent "`+agent+`"`, "has no MCP configuration planq knows")
		}
		return mcp, nil
	}
	return mergeJSON(append(edits, mcp...)), nil
}

// recipes are the edits that set up each agent of SetupAgents, in the
// directory base (the project's, or with t.Global the home directory):
// its hooks and instructions, and its MCP configuration.
var recipes = map[string]func(base string, t Target) (edits, mcp []Edit){
	"claude": claudeRecipe, "codex": codexRecipe, "gemini": geminiRecipe, "cursor": cursorRecipe,
	"opencode": opencodeRecipe, "windsurf": windsurfRecipe, "copilot": copilotRecipe, "aider": aiderRecipe,
}

func claudeRecipe(base string, t Target) (edits, mcp []Edit) {
	settings := filepath.Join(base, ".claude", "settings.json")
	if t.Local && !t.Global {
		settings = filepath.Join(base, ".claude", "settings.local.json")
	}
	edits = append(edits, JSONEntries{Path: settings, Owns: ownsHook, Elements: map[string]any{
		"hooks.SessionStart": claudeGroup("session-start", "claude", ""),
		"hooks.PreCompact":   claudeGroup("pre-compact", "claude", ""),
		"hooks.SessionEnd":   claudeGroup("session-end", "claude", ""),
	}})
	mcpFile := filepath.Join(base, ".mcp.json")
	if t.Global {
		mcpFile = filepath.Join(base, ".claude.json")
	}
	mcp = append(mcp, JSONEntries{Path: mcpFile, Owns: ownsHook, Members: map[string]any{
		"mcpServers.planq": stdioServer{Command: mcpCommand[0], Args: mcpArgs(claudeProjectDir)},
	}})
	return edits, mcp
}

func codexRecipe(base string, t Target) (edits, mcp []Edit) {
	dir := filepath.Join(base, ".codex")
	edits = append(edits, JSONEntries{Path: filepath.Join(dir, "hooks.json"), Owns: ownsHook, Elements: map[string]any{
		"hooks.SessionStart": claudeGroup("session-start", "codex", ""),
		"hooks.Stop":         claudeGroup("stop", "codex", ""),
	}})
	agents := filepath.Join(base, "AGENTS.md")
	if t.Global {
		agents = filepath.Join(dir, "AGENTS.md")
	}
	edits = append(edits, MarkdownBlock{Path: agents, Content: Snippet, User: "codex"})
	mcp = append(mcp, TOMLBlock{Path: filepath.Join(dir, "config.toml"), Table: "mcp_servers.planq",
		Content: "[mcp_servers.planq]\ncommand = \"planq\"\nargs = [\"mcp\", \"serve\"]"})
	return edits, mcp
}

func geminiRecipe(base string, t Target) (edits, mcp []Edit) {
	settings := filepath.Join(base, ".gemini", "settings.json")
	edits = append(edits, JSONEntries{Path: settings, Owns: ownsHook, Elements: map[string]any{
		"hooks.SessionStart": geminiGroup("session-start"),
		"hooks.PreCompress":  geminiGroup("pre-compact"),
		"hooks.SessionEnd":   geminiGroup("session-end"),
	}})
	md := filepath.Join(base, "GEMINI.md")
	if t.Global {
		md = filepath.Join(base, ".gemini", "GEMINI.md")
	}
	edits = append(edits, MarkdownBlock{Path: md, Content: Snippet, User: "gemini"})
	mcp = append(mcp, JSONEntries{Path: settings, Owns: ownsHook, Members: map[string]any{
		"mcpServers.planq": stdioServer{Command: mcpCommand[0], Args: mcpArgs(""), Timeout: 30000},
	}})
	return edits, mcp
}

// cursorRecipe is rules and MCP only: Cursor also runs Claude's hooks, and
// planq's session hooks must not run twice in one session.
func cursorRecipe(base string, _ Target) (edits, mcp []Edit) {
	edits = append(edits, OwnedFile{Path: filepath.Join(base, ".cursor", "rules", "planq.mdc"), Content: cursorRule})
	mcp = append(mcp, JSONEntries{Path: filepath.Join(base, ".cursor", "mcp.json"), Owns: ownsHook, Members: map[string]any{
		"mcpServers.planq": stdioServer{Command: mcpCommand[0], Args: mcpArgs(editorProjectDir)},
	}})
	return edits, mcp
}

func opencodeRecipe(base string, t Target) (edits, mcp []Edit) {
	edits = append(edits, MarkdownBlock{Path: filepath.Join(base, "AGENTS.md"), Content: Snippet, User: "opencode"})
	cfg := filepath.Join(base, "opencode.json")
	if t.Global {
		cfg = filepath.Join(base, ".config", "opencode", "opencode.json")
	}
	mcp = append(mcp, JSONEntries{Path: cfg, Owns: ownsHook, Members: map[string]any{
		"mcp.planq": localServer{Type: "local", Command: mcpCommand, Enabled: true},
	}})
	return edits, mcp
}

func windsurfRecipe(base string, _ Target) (edits, mcp []Edit) {
	return []Edit{OwnedFile{Path: filepath.Join(base, ".windsurf", "rules", "planq.md"), Content: windsurfRule}}, nil
}

func copilotRecipe(base string, _ Target) (edits, mcp []Edit) {
	edits = append(edits, MarkdownBlock{Path: filepath.Join(base, ".github", "copilot-instructions.md"), Content: Snippet, User: "copilot"})
	mcp = append(mcp, JSONEntries{Path: filepath.Join(base, ".vscode", "mcp.json"), Owns: ownsHook, Members: map[string]any{
		"servers.planq": stdioServer{Type: "stdio", Command: mcpCommand[0], Args: mcpArgs(editorProjectDir)},
	}})
	return edits, mcp
}

func aiderRecipe(base string, _ Target) (edits, mcp []Edit) {
	return []Edit{
		OwnedFile{Path: filepath.Join(base, ".planq", "instructions.md"), Content: "<!-- " + ownedMarker + ": written by 'planq setup aider' -->\n" + Snippet},
		YAMLListItem{Path: filepath.Join(base, ".aider.conf.yml"), Key: "read", Item: ".planq/instructions.md"},
	}, nil
}

// mergeJSON makes the JSON edits of one file one edit (Gemini keeps hooks
// and MCP servers in one settings.json): the file is written once, and a
// dry run lists it once.
func mergeJSON(edits []Edit) []Edit {
	var out []Edit
	at := map[string]int{}
	for _, e := range edits {
		j, ok := e.(JSONEntries)
		i, seen := at[e.File()]
		if !ok || !seen {
			if ok {
				at[e.File()] = len(out)
			}
			out = append(out, e)
			continue
		}
		merged := out[i].(JSONEntries)
		merged.Members = mergeMaps(merged.Members, j.Members)
		merged.Elements = mergeMaps(merged.Elements, j.Elements)
		out[i] = merged
	}
	return out
}

func mergeMaps(a, b map[string]any) map[string]any {
	if len(b) == 0 {
		return a
	}
	out := make(map[string]any, len(a)+len(b))
	maps.Copy(out, a)
	maps.Copy(out, b)
	return out
}

// claudeGroup is one hook group in the layout Claude Code and Codex share.
func claudeGroup(event, agent, matcher string) map[string]any {
	g := map[string]any{"hooks": []any{map[string]any{
		"type": "command", "command": fmt.Sprintf("planq hook %s --agent %s", event, agent), "timeout": 10,
	}}}
	if matcher != "" {
		g["matcher"] = matcher
	}
	return g
}

// geminiGroup is one hook group for Gemini CLI, whose timeouts are in
// milliseconds.
func geminiGroup(event string) map[string]any {
	return map[string]any{"hooks": []any{map[string]any{
		"name": "planq-" + event, "type": "command", "command": "planq hook " + event + " --agent gemini", "timeout": 10000,
	}}}
}

const cursorRule = `---
description: planq, this project's memory in git
alwaysApply: true
---
<!-- ` + ownedMarker + `: written by 'planq setup cursor'; 'planq setup cursor --remove' deletes it -->
` + Snippet

const windsurfRule = `---
trigger: always_on
---
<!-- ` + ownedMarker + `: written by 'planq setup windsurf'; 'planq setup windsurf --remove' deletes it -->
` + Snippet

// OtherClaudeSettings lists Claude settings files other than the one a
// recipe writes, where planq's hooks would make them run twice.
func OtherClaudeSettings(t Target) []string {
	all := []string{
		filepath.Join(t.Root, ".claude", "settings.json"),
		filepath.Join(t.Root, ".claude", "settings.local.json"),
		filepath.Join(t.Home, ".claude", "settings.json"),
	}
	mine := filepath.Join(t.Root, ".claude", "settings.json")
	switch {
	case t.Global:
		mine = filepath.Join(t.Home, ".claude", "settings.json")
	case t.Local:
		mine = filepath.Join(t.Root, ".claude", "settings.local.json")
	}
	var out []string
	for _, f := range all {
		if f != mine {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

// stdioServer is an MCP server entry, keys in the order people write them.
type stdioServer struct {
	Type    string   `json:"type,omitempty"`
	Command string   `json:"command"`
	Args    []string `json:"args"`
	Timeout int      `json:"timeout,omitempty"`
}

// localServer is opencode's MCP server entry.
type localServer struct {
	Type    string   `json:"type"`
	Command []string `json:"command"`
	Enabled bool     `json:"enabled"`
}
