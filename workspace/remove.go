package workspace

import (
	"context"
	"fmt"
	"strings"

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
	// Kept are the lines of the notes inbox no note may hold, each naming
	// its line and why (KeptLines in JSON). They keep the worktree unless
	// force; with force they are committed in notes.md at KeptIn.
	Kept      []*planqerr.Error `json:"-"`
	KeptLines []string          `json:"kept_lines,omitempty"`
	KeptIn    string            `json:"kept_in,omitempty"`
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
	if err := saveBeforeRemove(ctx, store, a, force, &res); err != nil {
		return res, err
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

// saveBeforeRemove commits the agent's pending state, and says in res what
// it saved. Lines appended to the notes inbox become notes first: nothing
// an agent noted is left unread; lines that cannot refuse the remove
// unless force.
func saveBeforeRemove(ctx context.Context, store *agent.Store, a *agent.Agent, force bool, res *Removed) error {
	noted, err := a.PickUpNotes(ctx, agent.WriteOptions{})
	if err != nil {
		return err
	}
	res.Kept = noted.Kept
	for _, k := range noted.Kept {
		res.KeptLines = append(res.KeptLines, k.Error())
	}
	if len(noted.Kept) > 0 && !force {
		return refuseKept(res.Agent, noted.Kept)
	}
	saved, problems, err := a.CommitPending(ctx, "save pending state before remove")
	if err != nil {
		return err
	}
	if len(noted.Kept) > 0 {
		// Saved with the rest of the agent's state: say where they are.
		tip, err := store.Repo.Tip(a.Branch)
		if err != nil {
			return err
		}
		res.KeptIn = tip.String()
	}
	if res.RawNotes, err = store.Records.RawNotes(); err != nil {
		return err
	}
	if !saved.IsZero() {
		res.Saved = saved.String()
	}
	for _, pr := range problems {
		res.Problems = append(res.Problems, pr.Error())
	}
	return nil
}

// refuseKept keeps an agent mounted while its notes inbox holds lines that
// could not become notes: once unmounted, no session would read them again.
func refuseKept(name string, kept []*planqerr.Error) error {
	lines := make([]string, len(kept))
	for i, k := range kept {
		lines[i] = k.Subject
	}
	what, them := "1 line of its notes inbox could not become a note", "it"
	if len(kept) > 1 {
		what, them = fmt.Sprintf("%d lines of its notes inbox could not become notes", len(kept)), "them"
	}
	return planqerr.New(planqerr.Refused, fmt.Sprintf("agent %q", name), "%s (%s); removing the worktree would leave %s where no session reads %s",
		what, strings.Join(lines, ", "), them, them).
		WithHint("fix or delete %s as said above, then 'planq remove %s' again; 'planq remove %s --force' removes it anyway, keeping %s committed in notes.md on branch agent-%s",
			them, name, name, them, name)
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
