package agent_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/branchctx"
	"github.com/planq-dev/planq/internal/testkit/testproject"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
)

// TestReadHandleNeedsNoWriter: a project opened to read resolves an agent
// and global to plain references and reads what the writer wrote (focus,
// scratch, branch context, as on disk while mounted), with no writer
// opened; where no agent is mounted, a reader reads global, which is no
// agent: it has no worktree and notes no uses.
func TestReadHandleNeedsNoWriter(t *testing.T) {
	ctx := context.Background()
	store, a := testproject.Auth(t)
	if _, err := a.SetFocus(ctx, "token refresh", agent.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.SetScratch(ctx, "try RS256", agent.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := a.EditBranchContext(ctx, "feat/x", func(c *branchctx.Context) { c.Body = "halfway" }, agent.WriteOptions{}); err != nil {
		t.Fatal(err)
	}

	h, err := readmodel.OpenHandle(ctx, store.Project)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	r, err := h.Reader("")
	if err != nil {
		t.Fatal(err)
	}
	if r != a.Ref || r.Name != "auth" || r.Branch != "agent-auth" || r.Dir == "" || r.Workspace == "" || r.Global() {
		t.Fatalf("the agent mounted here reads as %+v; its writer is %+v", r, a.Ref)
	}
	if focus, err := h.Focus(r); err != nil || focus != "token refresh" {
		t.Fatalf("focus = %q, %v", focus, err)
	}
	// Mounted, the scratch is read from disk: an agent may edit it by hand.
	if err := os.WriteFile(filepath.Join(r.Dir, project.ScratchFile), []byte("by hand\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if scratch, err := h.Scratch(r); err != nil || scratch != "by hand\n" {
		t.Fatalf("scratch = %q, %v", scratch, err)
	}
	if c, source, err := h.BranchContext(r, "feat/x"); err != nil || c == nil || strings.TrimSpace(c.Body) != "halfway" || source != "agent" {
		t.Fatalf("branch context = %+v from %q, %v", c, source, err)
	}

	// From a checkout with no agent mounted: global, read only.
	elsewhere := *store.Project
	elsewhere.Workspace = t.TempDir()
	t.Setenv("PLANQ_AGENT_DIR", "")
	lead, err := readmodel.OpenHandle(ctx, &elsewhere)
	if err != nil {
		t.Fatal(err)
	}
	defer lead.Close()
	g, err := lead.Reader("")
	if err != nil {
		t.Fatal(err)
	}
	if g != lead.Global() || !g.Global() || g.Name != project.GlobalBranch || g.Dir != "" || g.Workspace != "" {
		t.Fatalf("no agent mounted: the reader is %+v, want global with no worktree", g)
	}
	if _, err := lead.Resolve(""); !planqerr.Is(err, planqerr.NotFound) {
		t.Fatalf("resolving the agent of a checkout with none: %v, want not found", err)
	}
	if _, err := lead.Reader("nobody"); !planqerr.Is(err, planqerr.NotFound) {
		t.Fatalf("an agent named that does not exist: %v, want not found", err)
	}
	if c, _, err := lead.BranchContext(g, "feat/x"); err != nil || c != nil {
		t.Fatalf("global holds no context of feat/x until it is promoted; got %+v, %v", c, err)
	}
	if err := lead.NoteUses(g, []string{"pq-3f9a1c2e4b"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(store.Project.UsesJournal(project.GlobalBranch)); !os.IsNotExist(err) {
		t.Fatalf("global noted a use (%v): it has no writer to carry it", err)
	}
}
