package team

import (
	"bytes"
	"slices"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// stateReadmeTitle starts the README every global is created with.
var stateReadmeTitle = []byte("# planq state")

// IsPlanqState reports whether commit holds planq's state rather than
// something else pushed in its place (a code repository's history, say):
// its README is planq's, or it has a record directory.
func IsPlanqState(repo *staterepo.Repo, commit staterepo.Hash) (bool, error) {
	entries, err := repo.TopLevel(commit)
	if err != nil {
		return false, err
	}
	if len(entries) == 0 {
		return true, nil // nothing in it to pollute anything
	}
	kindDirs := changelog.Dirs()
	for _, e := range entries {
		if e.Dir && slices.Contains(kindDirs, e.Name) {
			return true, nil // the common case: no blob to read
		}
	}
	for _, e := range entries {
		if !e.Dir && e.Name == project.ReadmeFile {
			data, err := repo.ReadBlob(e.Blob)
			if err != nil {
				return false, err
			}
			if bytes.HasPrefix(data, stateReadmeTitle) {
				return true, nil
			}
		}
	}
	return false, nil
}

// notPlanqState is the refusal of a global that is not planq's state.
func notPlanqState(remote string, commit staterepo.Hash, repoPath string) error {
	return planqerr.New(planqerr.Refused, "remote "+remote, "its %s (%s) is not planq state: no planq README and no record directory; nothing was merged",
		project.RemoteGlobalRef, commit.String()[:12]).
		WithHint("someone pushed other history there; from a machine whose global is right, put it back: git -C %s push --force %s %s:%s",
			repoPath, remote, project.GlobalBranch, project.RemoteGlobalRef)
}
