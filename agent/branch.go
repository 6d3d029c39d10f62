package agent

import (
	"context"
	"strings"
	"time"

	"github.com/planq-dev/planq/branchctx"
)

// BranchContext returns the context of a code branch as this agent sees it
// (see readmodel.Handle.BranchContext).
func (a *Agent) BranchContext(branch string) (*branchctx.Context, string, error) {
	return a.store.BranchContext(a.Ref, branch)
}

// EditBranchContext rewrites the context of a code branch on the agent's
// branch, starting from what the agent sees (see BranchContext), and commits it.
func (a *Agent) EditBranchContext(ctx context.Context, branch string, edit func(*branchctx.Context), opts WriteOptions) (Written, *branchctx.Context, error) {
	current, _, err := a.BranchContext(branch)
	if err != nil {
		return Written{}, nil, err
	}
	now := time.Now().UTC()
	if current == nil {
		current = branchctx.New(branch, a.Name, now)
	}
	edit(current)
	current.UpdatedAt = now
	data, err := current.Render()
	if err != nil {
		return Written{}, nil, err
	}
	w, err := a.EditFile(ctx, branchctx.Path(branch), func(string) string { return string(data) },
		"branch: "+oneLine(branch+": "+strings.TrimSpace(current.Body)), opts)
	return w, current, err
}
