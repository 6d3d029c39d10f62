package team

import (
	"context"
	"strings"
	"time"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/internal/failpoint"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// writeGlobal commits on top of global's tip the files edit returns (from
// the tip's tree), with a compare-and-swap, rebuilding on a lost race: a
// lead's edit never overwrites a promote or pull that landed meanwhile.
func writeGlobal(ctx context.Context, store *agent.Store, message string, edit func(tree staterepo.Hash) (staterepo.Hash, error)) (staterepo.Hash, error) {
	repo := store.Repo
	retry := staterepo.NewRetry(project.GlobalBranch)
	for {
		tip, err := repo.Tip(project.GlobalBranch)
		if err != nil {
			return staterepo.ZeroHash, err
		}
		tree, err := repo.TreeOf(tip)
		if err != nil {
			return staterepo.ZeroHash, err
		}
		newTree, err := edit(tree)
		if err != nil {
			return staterepo.ZeroHash, err
		}
		if newTree == tree {
			return tip, nil
		}
		commit, err := repo.WriteCommit(newTree, []staterepo.Hash{tip}, message)
		if err != nil {
			return staterepo.ZeroHash, err
		}
		failpoint.Hit(failpoint.GlobalWritten)
		err = repo.UpdateRefs(ctx, "planq: "+strings.SplitN(message, "\n", 2)[0], []staterepo.RefUpdate{{Ref: localGlobalRef, New: commit, Old: tip}})
		if err == nil {
			return commit, nil
		}
		if again, err := retry.Again(ctx, err); !again {
			return staterepo.ZeroHash, err
		}
	}
}

// SetPlan replaces the team's plan, global's plan.md: what every agent's
// prime shows. It is one commit on global.
func SetPlan(ctx context.Context, store *agent.Store, text string, allowSecret bool) (staterepo.Hash, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return staterepo.ZeroHash, planqerr.New(planqerr.Invalid, "plan", "text is empty").
			WithHint("say what the team works on next: planq plan set PLAN ('-' reads it from stdin)")
	}
	data := []byte(text + "\n")
	if err := agent.Guard("plan", data, agent.WriteOptions{AllowSecret: allowSecret}); err != nil {
		return staterepo.ZeroHash, err
	}
	return writeGlobal(ctx, store, "plan: "+firstLine(text)+"\n", func(tree staterepo.Hash) (staterepo.Hash, error) {
		blob, err := store.Repo.WriteBlob(data)
		if err != nil {
			return staterepo.ZeroHash, err
		}
		return store.Repo.EditTree(tree, map[string]staterepo.Hash{project.PlanFile: blob})
	})
}

// RefreshChangelog regenerates global's changelog.md, as a commit of its
// own; nothing when it says what it said.
func RefreshChangelog(ctx context.Context, store *agent.Store) (staterepo.Hash, error) {
	return writeGlobal(ctx, store, "changelog: regenerate\n", func(tree staterepo.Hash) (staterepo.Hash, error) {
		return withChangelog(store, tree)
	})
}

// withChangelog is tree with changelog.md regenerated from every branch's
// log entries. A generated file is regenerated after a merge, never merged.
func withChangelog(store *agent.Store, tree staterepo.Hash) (staterepo.Hash, error) {
	data, err := store.Records.Changelog(store.Project.Config.Project, time.Now())
	if err != nil {
		return staterepo.ZeroHash, err
	}
	blob, err := store.Repo.WriteBlob(data)
	if err != nil {
		return staterepo.ZeroHash, err
	}
	return store.Repo.EditTree(tree, map[string]staterepo.Hash{project.ChangelogFile: blob})
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}
