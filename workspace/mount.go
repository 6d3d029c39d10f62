package workspace

import (
	"errors"

	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// RefuseOverDeadMount refuses to make a state repository for p while an
// agent mounted from the one that belongs there cannot reach it: the
// repository was moved away, or a new one already sits in its place. A new
// repository there would hide the agent's history, and take the place the
// old one must be moved back to. init and state init ask first, since a
// missing repository is otherwise what they are for.
func RefuseOverDeadMount(p *project.Project) error {
	err := staterepo.CheckMounts(p)
	if err == nil {
		return nil
	}
	var pe *planqerr.Error
	if errors.As(err, &pe) {
		refused := *pe
		refused.Kind = planqerr.Refused
		return &refused
	}
	return err
}
