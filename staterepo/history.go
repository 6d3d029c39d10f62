package staterepo

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/planq-dev/planq/planqerr"
)

// CommitAsOf returns the newest commit of tip's first-parent line that was
// committed at or before t: what the branch held then. A branch's first
// parents are its own states (a promote or pull merges the other side in
// as the second parent). It returns false when the line began after t.
func (r *Repo) CommitAsOf(ctx context.Context, tip Hash, t time.Time) (Hash, bool, error) {
	out, err := r.git.Run(ctx, "rev-list", "-1", "--first-parent", "--before="+strconv.FormatInt(t.Unix(), 10), tip.String())
	if err != nil {
		return ZeroHash, false, fmt.Errorf("failed to find %s as of %s: %w", tip, t.Format(time.RFC3339), err)
	}
	if out = strings.TrimSpace(out); out == "" {
		return ZeroHash, false, nil
	}
	return plumbing.NewHash(out), true, nil
}

// ResolveCommit finds the commit a name (a hash, abbreviated or whole, or a
// ref) stands for in the state repository.
func (r *Repo) ResolveCommit(ctx context.Context, name string) (Commit, error) {
	if name == "" || strings.HasPrefix(name, "-") {
		return Commit{}, planqerr.New(planqerr.Invalid, name, "is not a commit")
	}
	out, err := r.git.Run(ctx, "rev-parse", "--verify", "--quiet", "--end-of-options", name+"^{commit}")
	if err != nil || strings.TrimSpace(out) == "" {
		return Commit{}, planqerr.New(planqerr.NotFound, name, "is no commit of the state repository").
			WithHint("give a date (2026-11-02) or a commit of the state repository ('git -C .planq/agent log' shows them)")
	}
	return r.Commit(plumbing.NewHash(strings.TrimSpace(out)))
}
