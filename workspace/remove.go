package workspace

import (
	"context"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/internal/failpoint"
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
	// RawNotes counts the notes of every agent that wait for curation.
	RawNotes int `json:"raw_notes"`
}

// Remove unmounts agent name: it commits pending agent state, removes the
// state worktree and, when planq made it, the code workspace. The agent
// branch stays: deleting merged branches is gc's job. Without force it
// refuses while the code workspace has uncommitted changes.
func Remove(ctx context.Context, p *project.Project, name string, force bool) (Removed, error) {
	store, err := agent.OpenStore(ctx, p)
	if err != nil {
		return Removed{}, err
	}
	defer store.Close()
	a, err := store.Agent(name)
	if err != nil {
		return Removed{}, err
	}
	res := Removed{Agent: name}
	code := staterepo.OpenCode(p.Root)
	ownWorkspace := p.WorkspacePath(name)
	if a.Dir == "" {
		// Not mounted: a stale registration can remain, and the workspace
		// of a remove that stopped half way.
		if err := store.Repo.PruneWorktrees(ctx); err != nil {
			return res, err
		}
		if _, ok := codeWorktreeAt(p, ownWorkspace); !ok {
			return res, nil
		}
		return removeWorkspace(ctx, code, ownWorkspace, force, res)
	}
	ownsWorkspace := samePath(a.Workspace, ownWorkspace)
	if ownsWorkspace && !force {
		if err := refuseChanges(ctx, code, a.Workspace); err != nil {
			return res, err
		}
	}
	// Lines appended to the notes inbox become notes before the worktree
	// goes: nothing an agent noted is left unread.
	if _, err := a.PickUpNotes(ctx, agent.WriteOptions{}); err != nil {
		return res, err
	}
	saved, problems, err := a.CommitPending(ctx, "save pending state before remove")
	if err != nil {
		return res, err
	}
	if res.RawNotes, err = store.Records.RawNotes(); err != nil {
		return res, err
	}
	if !saved.IsZero() {
		res.Saved = saved.String()
	}
	for _, pr := range problems {
		res.Problems = append(res.Problems, pr.Error())
	}
	failpoint.Hit(failpoint.RemoveSaved)
	// Everything is committed; force only clears files git ignores.
	if err := store.Repo.RemoveWorktree(ctx, a.Dir, true); err != nil {
		return res, err
	}
	res.AgentDir = a.Dir
	failpoint.Hit(failpoint.RemoveUnmounted)
	if ownsWorkspace {
		if err := code.RemoveWorktree(ctx, a.Workspace, force); err != nil {
			return res, err
		}
		res.Workspace = a.Workspace
	}
	return res, nil
}

// removeWorkspace removes the code workspace planq made at ws, refusing,
// unless force, while it has uncommitted changes.
func removeWorkspace(ctx context.Context, code *staterepo.CodeRepo, ws string, force bool, res Removed) (Removed, error) {
	if !force {
		if err := refuseChanges(ctx, code, ws); err != nil {
			return res, err
		}
	}
	if err := code.RemoveWorktree(ctx, ws, force); err != nil {
		return res, err
	}
	res.Workspace = ws
	return res, nil
}

func refuseChanges(ctx context.Context, code *staterepo.CodeRepo, ws string) error {
	changes, err := code.Changes(ctx, ws)
	if err != nil {
		return err
	}
	if len(changes) > 0 {
		return planqerr.New(planqerr.Refused, ws, "workspace has %d uncommitted change(s), first: %s", len(changes), changes[0]).
			WithHint("commit or stash them, or pass --force to discard them")
	}
	return nil
}

// codeWorktreeAt is the live worktree of the code repository at dir, if
// there is one.
func codeWorktreeAt(p *project.Project, dir string) (staterepo.WorktreeInfo, bool) {
	wts, err := staterepo.CodeWorktrees(p.CommonGitDir)
	if err != nil {
		return staterepo.WorktreeInfo{}, false
	}
	for _, wt := range wts {
		if !wt.Missing && samePath(wt.Path, dir) {
			return wt, true
		}
	}
	return staterepo.WorktreeInfo{}, false
}
