package importing

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/planq-dev/planq/internal/testkit/testgit"
)

// TestInstructionFilesOfExampleTreesAreNotTheProjects: a nested
// AGENTS.md under examples/ supplied half of a real project's
// conventions. An instruction file in an example tree is skipped, and
// said so; one that governs a directory of the project's own is read.
func TestInstructionFilesOfExampleTreesAreNotTheProjects(t *testing.T) {
	testgit.Isolate(t)
	code := t.TempDir()
	testgit.Run(t, code, "init", "-q")
	for rel, text := range map[string]string{
		"AGENTS.md":                   "# Agents\n\n- Run go test before every commit.\n",
		"pkg/api/AGENTS.md":           "# API\n\n- Handlers return wrapped errors.\n",
		"examples/todo-app/AGENTS.md": "# Todo\n\n- Use npm start to run the example.\n",
		"test/fixtures/AGENTS.md":     "# Fixture\n\n- Pretend conventions for a test.\n",
	} {
		write(t, filepath.Join(code, filepath.FromSlash(rel)), text)
	}
	testgit.Run(t, code, "add", "-A")
	f, err := instructionSource(t.Context(), code, nil)
	if err != nil {
		t.Fatal(err)
	}
	var read []string
	for _, p := range f.Pieces {
		read = append(read, p.File+": "+p.Record.Body)
	}
	slices.Sort(read)
	if want := []string{"AGENTS.md: Run go test before every commit.", "pkg/api/AGENTS.md: Handlers return wrapped errors."}; !slices.Equal(read, want) {
		t.Errorf("read %q, want %q", read, want)
	}
	var skipped []string
	for _, s := range f.Skipped {
		skipped = append(skipped, s.File+": "+s.Why)
	}
	slices.Sort(skipped)
	if len(skipped) != 2 || !strings.Contains(skipped[0], "examples/todo-app/AGENTS.md: an instruction file of the example tree examples/") ||
		!strings.Contains(skipped[1], "test/fixtures/AGENTS.md: an instruction file of the example tree test/fixtures/") {
		t.Errorf("skipped %q", skipped)
	}
	if f.Read != 4 {
		t.Errorf("read %d files, want 4 (the skipped ones are read, and named)", f.Read)
	}
}

// A table of contents points at knowledge and holds none: its entries,
// and any bullet that is only a link within the file, are no convention.
func TestATableOfContentsIsNoConvention(t *testing.T) {
	pieces, err := instructionPieces("CLAUDE.md", "# Guide\n\n## Table of Contents\n\n- [Infrastructure as Code](#infrastructure-as-code)\n"+
		"- [Security rules for tenants](#security)\n\n## Security\n\n- Never log sensitive data or keys.\n- [Seeds Issue Tracking](#seeds-issue-tracking)\n"+
		"- See [the runbook](docs/runbook.md) before each deploy.\n")
	if err != nil {
		t.Fatal(err)
	}
	var read []string
	for _, p := range pieces {
		read = append(read, p.Record.Body)
	}
	if want := []string{"Never log sensitive data or keys.", "See [the runbook](docs/runbook.md) before each deploy."}; !slices.Equal(read, want) {
		t.Errorf("read %q, want %q", read, want)
	}
}

// A table's rows are its facts, each read with its column names, not one
// line of pipes.
func TestATablesRowsAreItsFacts(t *testing.T) {
	pieces, err := instructionPieces("CLAUDE.md", "# Guide\n\n## Commands\n\n| Command | Usage | Notes |\n|---------|:------|-------|\n"+
		"| `bun install` | Install dependencies | Never use `npm install` |\n| `bun test` | Run tests | |\n\nRun them from the root.\n")
	if err != nil {
		t.Fatal(err)
	}
	var read []string
	for _, p := range pieces {
		read = append(read, fmt.Sprintf("%d %s", p.Line, p.Record.Body))
	}
	want := []string{"7 Command: `bun install`; Usage: Install dependencies; Notes: Never use `npm install`",
		"8 Command: `bun test`; Usage: Run tests", "10 Run them from the root."}
	if !slices.Equal(read, want) {
		t.Errorf("read %q\nwant %q", read, want)
	}
}
