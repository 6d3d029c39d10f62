package team

import (
	"context"
	"errors"
	"os"
	"strings"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// Which project a global belongs to. Every global starts from the same first
// commit (the skeleton, signed and dated alike on every machine), so that two
// machines that ran 'planq init' apart share history, whichever planq made
// them. A second commit, the same on every machine of one project, adds
// PROJECT with the project's name: two machines of one project still make
// the same global, and a global knows whose it is. Pull and push read the
// remote's PROJECT and refuse another project's global. A global made before
// PROJECT names no project: it is taken for this project's, and the next
// push names it.

// InitGlobal creates the state repository at path with a new global for
// the project called name; see staterepo.Init.
func InitGlobal(ctx context.Context, path, name string) (bool, error) {
	return staterepo.Init(ctx, path, changelog.Skeleton(), projectCommit(name))
}

// createGlobal gives a new repository the new global of project name.
func createGlobal(ctx context.Context, r *staterepo.Repo, name string) error {
	return r.CreateGlobal(ctx, changelog.Skeleton(), projectCommit(name))
}

func projectCommit(name string) staterepo.InitialCommit {
	return staterepo.InitialCommit{Message: projectMessage(name), Files: map[string][]byte{project.ProjectFile: []byte(name + "\n")}}
}

func projectMessage(name string) string { return "planq: global of project " + name + "\n" }

// ProjectOf is the project the global at commit belongs to: "" when it
// names none (made before planq named it).
func ProjectOf(repo *staterepo.Repo, commit staterepo.Hash) (string, error) {
	tree, err := repo.TreeOf(commit)
	if err != nil {
		return "", err
	}
	blob, err := repo.BlobAt(tree, project.ProjectFile)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	data, err := repo.ReadBlob(blob)
	if err != nil {
		return "", err
	}
	name, _, _ := strings.Cut(strings.TrimSpace(string(data)), "\n")
	const maxShown = 100 // a name is short; whatever else is there is not shown whole
	if len(name) > maxShown {
		name = name[:maxShown] + "..."
	}
	return name, nil
}

// otherProject refuses the global of remote when it names (theirs) a
// project other than p's. nothing says what was not done ("merged",
// "pushed"); again is the command that does it all the same.
func otherProject(p *project.Project, remote, theirs, nothing, again string) error {
	if theirs == "" || theirs == p.Config.Project {
		return nil
	}
	return planqerr.New(planqerr.Refused, "remote "+remote, "holds the global of project %q, not of this project %q; nothing was %s", theirs, p.Config.Project, nothing).
		WithHint("if %s is the wrong remote, point it at this project's: planq state remote add %s URL --replace; if it is this project's memory under another name, take it all the same: %s", remote, remote, again)
}

// nameGlobal names this project on global when global names none (made
// before planq named it) or another (a global of another project taken by
// a fast-forward, on purpose), so that the remote learns whose it is from
// the push that follows. It returns global's tip.
func nameGlobal(ctx context.Context, store *agent.Store) (staterepo.Hash, error) {
	tip, err := store.Repo.Tip(project.GlobalBranch)
	if err != nil {
		return staterepo.ZeroHash, err
	}
	name := store.Project.Config.Project
	if named, err := ProjectOf(store.Repo, tip); err != nil || named == name {
		return tip, err
	}
	return store.CommitGlobal(ctx, agent.GlobalChange{Message: projectMessage(name), Regenerated: func() (map[string][]byte, error) {
		return map[string][]byte{project.ProjectFile: []byte(name + "\n")}, nil
	}})
}

// withProject is tree naming p's project: a merge's tree, whichever side
// it took PROJECT from (an unrelated global merged on purpose names its own).
func withProject(repo *staterepo.Repo, p *project.Project, tree staterepo.Hash) (staterepo.Hash, error) {
	blob, err := repo.WriteBlob([]byte(p.Config.Project + "\n"))
	if err != nil {
		return staterepo.ZeroHash, err
	}
	return repo.EditTree(tree, map[string]staterepo.Hash{project.ProjectFile: blob})
}
