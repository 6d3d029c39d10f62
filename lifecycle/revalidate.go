package lifecycle

import (
	"context"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
)

// Revalidate records that the agent checked learning id against the code
// and it still holds: a new version, the same content, anchored to the code
// checkout's HEAD as it is now (its evidence commit and each cited file's
// blob there). Its shelf life starts afresh, and readers stop marking it
// stale.
func Revalidate(ctx context.Context, a *agent.Agent, id string, opts agent.WriteOptions) (agent.Written, error) {
	old, err := Target(a, id)
	if err != nil {
		return agent.Written{}, err
	}
	if old.Kind != changelog.KindLearning {
		return agent.Written{}, planqerr.New(planqerr.Invalid, id, "is a %s; only learnings are revalidated", old.Kind.Noun())
	}
	if a.Workspace == "" {
		return agent.Written{}, planqerr.New(planqerr.Invalid, id, "cannot be checked against the code: no code checkout has an agent mounted here").
			WithHint("run it in an agent's workspace, where the code the learning cites is checked out")
	}
	next := NextVersion(old)
	if next.Evidence != nil {
		// The write fills in the checkout's HEAD and branch, and anchors
		// the cited files there.
		next.Evidence.Commit, next.Evidence.Branch = "", ""
	}
	for i := range next.Anchors {
		next.Anchors[i].Blob = ""
	}
	return a.Write(ctx, next, opts)
}
