package workspace

import (
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// RefuseOverDeadMount refuses to make a state repository for p while an
// agent mounted from the one that belongs there cannot reach it: the
// repository was moved away, or a new one already sits in its place. A new
// repository there would hide the agent's history, and take the place the
// old one must be moved back to. init and state init ask first, since a
// missing repository is otherwise what they are for, and they look at the
// mounts of every checkout: init is what a puzzled user runs, wherever.
func RefuseOverDeadMount(p *project.Project) error {
	dead := staterepo.DeadMounts(p)
	if len(dead) == 0 {
		return nil
	}
	refused := dead[0].Err()
	refused.Kind = planqerr.Refused
	return refused
}
