package team

import (
	"context"
	"time"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// RefreshChangelog regenerates global's changelog.md, as a commit of its
// own; nothing when it says what it said. The file is made of the log
// entries the branches hold, each checked when planq wrote it (one
// committed by hand, or pulled, is in the repository already, and a push
// scans what it publishes).
func RefreshChangelog(ctx context.Context, store *agent.Store) (staterepo.Hash, error) {
	return store.CommitGlobal(ctx, agent.GlobalChange{Message: "changelog: regenerate\n", Regenerated: func() (map[string][]byte, error) {
		data, err := store.Records.Changelog(store.Project.Config.Project, time.Now())
		return map[string][]byte{project.ChangelogFile: data}, err
	}})
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
