package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/staterepo"
)

// Rewrite applies changes to files of the agent's worktree (new content, or
// nil to remove the file) and commits exactly those paths, in one commit,
// under the agent's lock: a repair (validate --fix) that moves or
// normalises record files. If the commit fails, the files are put back as
// they were.
func (a *Agent) Rewrite(ctx context.Context, changes map[string][]byte, message string) (staterepo.Hash, error) {
	if err := a.requireMounted(); err != nil {
		return staterepo.ZeroHash, err
	}
	wt, unlock, err := a.lockedWorktree(ctx)
	if err != nil {
		return staterepo.ZeroHash, err
	}
	defer unlock()
	paths := make([]string, 0, len(changes))
	for p := range changes {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	before := map[string][]byte{}
	restore := func() {
		for _, p := range paths {
			full := filepath.Join(a.Dir, filepath.FromSlash(p))
			if old, ok := before[p]; ok {
				_ = os.WriteFile(full, old, 0o644) // best effort: the error that stopped the repair is the one to report
			} else {
				_ = os.Remove(full)
			}
		}
	}
	for _, p := range paths {
		full := filepath.Join(a.Dir, filepath.FromSlash(p))
		if old, err := os.ReadFile(full); err == nil {
			before[p] = old
		}
		var err error
		if changes[p] == nil {
			err = os.Remove(full)
		} else if err = os.MkdirAll(filepath.Dir(full), 0o755); err == nil {
			err = os.WriteFile(full, changes[p], 0o644)
		}
		if err != nil && !os.IsNotExist(err) {
			restore()
			return staterepo.ZeroHash, fmt.Errorf("failed to write %s: %w", p, err)
		}
	}
	commit, err := wt.CommitFiles(ctx, paths, fmt.Sprintf("%s\n\n%s: %s\n", message, trailerAgent, a.Name))
	if err != nil {
		restore()
		return staterepo.ZeroHash, planqerr.New(planqerr.Failure, a.Dir, "failed to commit the repair: %w", err).
			WithHint("nothing was changed; once the cause is gone, run it again")
	}
	return commit, nil
}
