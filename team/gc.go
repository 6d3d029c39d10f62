package team

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/internal/failpoint"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// Archived is an agent branch gc removed and kept.
type Archived struct {
	Agent  string `json:"agent"`
	Commit string `json:"commit"`
	Ref    string `json:"archive"`
}

// GCResult says what gc did (or would do).
type GCResult struct {
	Archived []Archived `json:"archived"`
	// Kept lists merged agents gc left alone because they are mounted.
	Kept []string `json:"kept"`
}

// GC deletes agent branches that global already holds (their tip is an
// ancestor of global, as promote makes it) and whose worktree is gone,
// keeping each under an archive ref first; then it prunes stale worktree
// registrations and runs git's maintenance, which never prunes objects
// younger than two weeks.
func GC(ctx context.Context, store *agent.Store, dryRun bool) (GCResult, error) {
	repo := store.Repo
	res := GCResult{Archived: []Archived{}, Kept: []string{}}
	if !dryRun {
		if err := repo.PruneWorktrees(ctx); err != nil {
			return res, err
		}
	}
	merged, err := repo.MergedBranches(ctx, project.GlobalBranch, project.AgentBranchRefPattern)
	if err != nil {
		return res, err
	}
	wts, err := repo.Worktrees()
	if err != nil {
		return res, err
	}
	mounted := map[string]bool{}
	for _, wt := range wts {
		if !wt.Missing {
			mounted[wt.Branch] = true
		}
	}
	stamp := time.Now().UTC().Format("20060102T150405.000000000Z")
	var updates []staterepo.RefUpdate
	for branch, tip := range merged {
		name, _ := project.AgentOfBranch(branch)
		if mounted[branch] {
			res.Kept = append(res.Kept, name)
			continue
		}
		// A ref keeps every commit of the branch alive, and restore brings it back.
		ref := project.ArchiveRef(name, stamp)
		res.Archived = append(res.Archived, Archived{Agent: name, Commit: tip.String(), Ref: ref})
		updates = append(updates,
			staterepo.RefUpdate{Ref: ref, New: tip},
			staterepo.RefUpdate{Ref: project.BranchRef(branch), Old: tip})
	}
	sort.Slice(res.Archived, func(i, j int) bool { return res.Archived[i].Agent < res.Archived[j].Agent })
	sort.Strings(res.Kept)
	if dryRun {
		return res, nil
	}
	if len(updates) > 0 {
		// One transaction: an agent that wrote since we looked keeps its branch
		// (the delete's old value no longer matches) and nothing is archived.
		if err := repo.UpdateRefs(ctx, "planq: gc", updates); err != nil {
			return res, planqerr.New(planqerr.Busy, "gc", "an agent branch moved while gc ran: %w", err).
				WithHint("run 'planq state gc' again")
		}
		failpoint.Hit(failpoint.GCArchived)
		if _, err := RefreshChangelog(ctx, store); err != nil {
			return res, err
		}
	}
	failpoint.Hit(failpoint.GCMaintenancePending)
	return res, repo.Maintain(ctx)
}

// Restore brings back an agent branch gc archived (the latest archive of
// it), so 'planq create NAME --resume' can mount it again.
func Restore(ctx context.Context, store *agent.Store, name string) (Archived, error) {
	if err := project.ValidateName("agent", name); err != nil {
		return Archived{}, err
	}
	repo := store.Repo
	branch := project.AgentBranch(name)
	if _, err := repo.Tip(branch); err == nil {
		return Archived{}, planqerr.New(planqerr.Exists, `agent "`+name+`"`, "branch %s exists; nothing to restore", branch)
	}
	refs, err := repo.Refs(project.ArchiveRef(name, ""))
	if err != nil {
		return Archived{}, err
	}
	if len(refs) == 0 {
		return Archived{}, planqerr.New(planqerr.NotFound, `agent "`+name+`"`, "has no archive").
			WithHint("'planq state archives' lists what gc kept")
	}
	latest := ""
	for ref := range refs {
		if ref > latest {
			latest = ref
		}
	}
	tip := refs[latest]
	failpoint.Hit(failpoint.RestoreFound)
	err = repo.UpdateRefs(ctx, "planq: restore "+name, []staterepo.RefUpdate{
		{Ref: project.BranchRef(branch), New: tip},
		{Ref: latest, Old: tip},
	})
	if err != nil {
		return Archived{}, fmt.Errorf("failed to restore %s: %w", name, err)
	}
	return Archived{Agent: name, Commit: tip.String(), Ref: latest}, nil
}

// Archives lists what gc kept, oldest first.
func Archives(store *agent.Store) ([]Archived, error) {
	refs, err := store.Repo.Refs(project.ArchiveRefPrefix)
	if err != nil {
		return nil, err
	}
	out := make([]Archived, 0, len(refs))
	for ref, h := range refs {
		name, _, _ := strings.Cut(strings.TrimPrefix(ref, project.ArchiveRefPrefix), "/")
		out = append(out, Archived{Agent: name, Commit: h.String(), Ref: ref})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Ref < out[j].Ref })
	return out, nil
}
