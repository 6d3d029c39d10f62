package workspace

import (
	"context"
	"path/filepath"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// Removed says what Remove did.
type Removed struct {
	Agent string `json:"agent"`
	// Saved is the commit of pending state saved first, "" if none was pending.
	Saved string `json:"saved,omitempty"`
	// AgentDir is the state worktree removed, "" if it was not mounted.
	AgentDir string `json:"agent_dir,omitempty"`
	// Workspace is the code workspace removed, "" if planq did not make it.
	Workspace string `json:"workspace,omitempty"`
	// Problems are malformed records found in the saved state.
	Problems []string `json:"problems,omitempty"`
}

// Remove unmounts agent name: it commits pending agent state, removes the
// state worktree and, when planq made it, the code workspace. The agent
// branch stays: deleting merged branches is gc's job. Without force it
// refuses while the code workspace has uncommitted changes.
func Remove(ctx context.Context, p *project.Project, name string, force bool) (Removed, error) {
	store, err := agent.OpenStore(p)
	if err != nil {
		return Removed{}, err
	}
	defer store.Close()
	a, err := store.Agent(name)
	if err != nil {
		return Removed{}, err
	}
	res := Removed{Agent: name}
	if a.Dir == "" {
		// Not mounted: only a stale registration can remain.
		return res, store.Repo.PruneWorktrees(ctx)
	}
	code := staterepo.OpenCode(p.Root)
	ownsWorkspace := filepath.Clean(a.Workspace) == filepath.Clean(p.WorkspacePath(name))
	if ownsWorkspace && !force {
		changes, err := code.Changes(ctx, a.Workspace)
		if err != nil {
			return res, err
		}
		if len(changes) > 0 {
			return res, planqerr.New(planqerr.Refused, a.Workspace, "workspace has %d uncommitted change(s), first: %s", len(changes), changes[0]).
				WithHint("commit or stash them, or pass --force to discard them")
		}
	}
	saved, problems, err := a.CommitPending(ctx, "save pending state before remove")
	if err != nil {
		return res, err
	}
	if !saved.IsZero() {
		res.Saved = saved.String()
	}
	for _, pr := range problems {
		res.Problems = append(res.Problems, pr.Error())
	}
	// Everything is committed; force only clears files git ignores.
	if err := store.Repo.RemoveWorktree(ctx, a.Dir, true); err != nil {
		return res, err
	}
	res.AgentDir = a.Dir
	if ownsWorkspace {
		if err := code.RemoveWorktree(ctx, a.Workspace, force); err != nil {
			return res, err
		}
		res.Workspace = a.Workspace
	}
	return res, nil
}
