package agent

import (
	"context"

	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/staterepo"
)

// Store is a project's state repository opened for writing records. It
// holds the project's read handle: what a writer reads first (a duplicate,
// an acknowledgement) goes through the same record cache as every reader,
// and a reader needs only the handle.
type Store struct {
	*readmodel.Handle
	// Repo is the state repository itself, for the writers: a reader
	// holds the handle alone, which keeps git behind the read model.
	Repo *staterepo.Repo
	// GlobalMoved, when set, hears of each move of global this store
	// makes (MoveGlobal), once it has landed, with global's commits
	// before and after: the project service brings the knowledge base in
	// step by it, whichever write moved global.
	GlobalMoved func(ctx context.Context, from, to staterepo.Hash)
}

// OpenStore opens the project's state repository and its record cache. Its
// reader reports its builds from git to the readmodel.Progress ctx carries.
func OpenStore(ctx context.Context, p *project.Project) (*Store, error) {
	// Before Open: a missing repository's own error would send the user to
	// 'planq init', which must not make a new one over an agent's history.
	if err := staterepo.CheckMounts(p); err != nil {
		return nil, err
	}
	repo, err := staterepo.Open(p.StateRepo())
	if err != nil {
		return nil, err
	}
	return &Store{Handle: readmodel.Attach(ctx, p, repo), Repo: repo}, nil
}
