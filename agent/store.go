package agent

import (
	"context"

	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
)

// Store is a project's state repository opened for writing records. It
// holds the project's read handle: what a writer reads first (a duplicate,
// an acknowledgement) goes through the same record cache as every reader,
// and a reader needs only the handle.
type Store struct {
	*readmodel.Handle
}

// OpenStore opens the project's state repository and its record cache. Its
// reader reports its builds from git to the readmodel.Progress ctx carries.
func OpenStore(ctx context.Context, p *project.Project) (*Store, error) {
	h, err := readmodel.OpenHandle(ctx, p)
	if err != nil {
		return nil, err
	}
	return &Store{Handle: h}, nil
}
