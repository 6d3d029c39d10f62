package agent

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/planq-dev/planq/branchctx"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
)

// BranchContext returns the context of a code branch as this agent sees it:
// its own working copy, else what it committed, else what global holds. The
// second result says which ("agent" or "global"); nil when there is none.
func (a *Agent) BranchContext(branch string) (*branchctx.Context, string, error) {
	rel := branchctx.Path(branch)
	if a.Dir != "" && !a.store.Records.Pinned() {
		if data, err := os.ReadFile(filepath.Join(a.Dir, filepath.FromSlash(rel))); err == nil {
			c, err := parseBranch(rel, data)
			return c, "agent", err
		}
	}
	for _, from := range []string{a.Branch, project.GlobalBranch} {
		tip, err := a.store.Records.Tip(from)
		if planqerr.Is(err, planqerr.NotFound) && a.store.Records.Pinned() {
			continue // not there yet at that moment
		}
		if err != nil {
			return nil, "", err
		}
		data, err := a.store.Records.FileAt(tip, rel)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, "", err
		}
		c, err := parseBranch(rel, data)
		source := "agent"
		if from == project.GlobalBranch {
			source = "global"
		}
		return c, source, err
	}
	return nil, "", nil
}

func parseBranch(rel string, data []byte) (*branchctx.Context, error) {
	c, err := branchctx.Parse(rel, data)
	if err != nil {
		return nil, planqerr.New(planqerr.Corrupt, rel, "%w", err).WithHint("fix the file in .planq/agent by hand, or replace it with 'planq branch edit'")
	}
	return c, nil
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
