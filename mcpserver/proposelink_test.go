package mcpserver_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProposeThroughALinkSaysWhereItWent: planq_curate shows CLAUDE.md, a
// symbolic link to AGENTS.md, as a link; planq_propose for CLAUDE.md keeps
// the proposal for AGENTS.md and tells the agent so.
func TestProposeThroughALinkSaysWhereItWent(t *testing.T) {
	dir := project(t)
	if err := os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte("# Agents\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("AGENTS.md", filepath.Join(dir, "CLAUDE.md")); err != nil {
		t.Fatal(err)
	}
	s := connect(t, "--project", dir)
	text, _ := callTool(t, s, "planq_note", map[string]any{"text": "run the overlay tests with --race"})
	note := recordID.FindString(text)
	if text, isErr := callTool(t, s, "planq_curate", map[string]any{}); isErr || !strings.Contains(text, "\n### CLAUDE.md (symbolic link to AGENTS.md)\n") {
		t.Fatalf("planq_curate: %v %s", isErr, text)
	}
	text, isErr := callTool(t, s, "planq_propose", map[string]any{"proposed_files": map[string]any{"CLAUDE.md": "# Agents\n\nRun the overlay tests with `--race`.\n"},
		"diff_summary": "--race", "entries_used": []string{note}})
	if isErr || !strings.Contains(text, "kept proposal pq-") ||
		!strings.Contains(text, "\nCLAUDE.md is a symbolic link to AGENTS.md: what the proposal holds for it goes to AGENTS.md") {
		t.Fatalf("planq_propose through a link: %v %s", isErr, text)
	}
}
