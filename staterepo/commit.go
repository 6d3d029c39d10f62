package staterepo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/planq-dev/planq/internal/failpoint"
)

// refWait bounds how long a commit keeps being rebuilt after losing races
// for the branch to other writers (plain git in the same worktree, say).
const refWait = 10 * time.Second

// CommitFiles commits exactly the given paths (relative to the worktree, as
// they are on disk; a missing file is a deletion) on the worktree's branch
// and returns the new commit. Anything else the user staged stays staged and
// uncommitted, as with `git commit -- <paths>`.
//
// The index gets the paths through `git update-index`, so `git status` stays
// clean; the commit itself is built in process from the branch tip, touching
// only the trees along the paths. Its cost therefore follows the size of the
// directories written to, not the number of files in the repository, unlike
// `git commit`, which re-reads the whole index and stats every file.
func (w *Worktree) CommitFiles(ctx context.Context, paths []string, message string) (plumbing.Hash, error) {
	// Stage in the background while the commit is built: the two are
	// independent, and the ref moves only once both are done, so the index
	// is never behind the branch.
	staged := make(chan error, 1)
	go func() {
		args := append([]string{"update-index", "--add", "--remove", "--"}, paths...)
		staged <- w.runWaitingForIndex(ctx, args...)
	}()
	waitStaged := func() error {
		if err := <-staged; err != nil {
			return fmt.Errorf("failed to stage %v: %w", paths, err)
		}
		return nil
	}
	edits := make(map[string]plumbing.Hash, len(paths))
	for _, p := range paths {
		data, err := os.ReadFile(filepath.Join(w.Dir, p))
		switch {
		case isNotExist(err):
			edits[filepath.ToSlash(p)] = plumbing.ZeroHash
		case err != nil:
			_ = waitStaged()
			return plumbing.ZeroHash, fmt.Errorf("failed to read %s: %w", p, err)
		default:
			h, err := w.Repo.writeBlob(data)
			if err != nil {
				_ = waitStaged()
				return plumbing.ZeroHash, err
			}
			edits[filepath.ToSlash(p)] = h
		}
	}
	h, err := w.commitTreeAfter(ctx, message, waitStaged, func(base plumbing.Hash) (plumbing.Hash, error) {
		return w.Repo.EditTree(base, edits)
	})
	if errors.Is(err, errNothingToCommit) {
		// Someone committed these very contents already (plain git, racing us).
		return h, nil
	}
	return h, err
}

// CommitAll commits every pending change in the worktree, as `git add --all`
// and `git commit` would, and returns the new commit, or the zero hash when
// there was nothing to commit. Unlike `git commit` it needs no configured
// identity and runs no hooks.
func (w *Worktree) CommitAll(ctx context.Context, message string) (plumbing.Hash, error) {
	if err := w.runWaitingForIndex(ctx, "add", "--all"); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("failed to stage pending state: %w", err)
	}
	out, err := w.git.Run(ctx, "write-tree")
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("failed to write the index as a tree: %w", err)
	}
	tree := plumbing.NewHash(out)
	h, err := w.commitTree(ctx, message, func(plumbing.Hash) (plumbing.Hash, error) { return tree, nil })
	if errors.Is(err, errNothingToCommit) {
		return plumbing.ZeroHash, nil
	}
	return h, err
}

var errNothingToCommit = errors.New("nothing to commit")

// commitTree commits the tree that build makes from the branch tip's tree
// and moves the branch with a compare-and-swap, rebuilding on a lost race.
func (w *Worktree) commitTree(ctx context.Context, message string, build func(base plumbing.Hash) (plumbing.Hash, error)) (plumbing.Hash, error) {
	return w.commitTreeAfter(ctx, message, func() error { return nil }, build)
}

// commitTreeAfter is commitTree that waits for ready (exactly once) before
// the branch first moves, and fails with its error.
func (w *Worktree) commitTreeAfter(ctx context.Context, message string, ready func() error, build func(base plumbing.Hash) (plumbing.Hash, error)) (plumbing.Hash, error) {
	waited := false
	wait := func() error {
		if waited {
			return nil
		}
		waited = true
		return ready()
	}
	defer func() { _ = wait() }() // never leave the staging process behind
	branch, err := w.Branch()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	retry := NewRetry(branch)
	for {
		tip, err := w.Repo.Tip(branch)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		parent, err := w.Repo.Commit(tip)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		tree, err := build(parent.Tree)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		if tree == parent.Tree || (tree.IsZero() && parent.Tree == emptyTree) {
			if err := wait(); err != nil {
				return plumbing.ZeroHash, err
			}
			return tip, errNothingToCommit
		}
		commit, err := w.Repo.WriteCommit(tree, []plumbing.Hash{tip}, message)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		if err := wait(); err != nil {
			return plumbing.ZeroHash, err
		}
		failpoint.Hit(failpoint.CommitWritten)
		// Through HEAD, so both the branch's and HEAD's reflogs record it.
		err = updateRef(ctx, w.git, "HEAD", commit, tip, "planq: "+subject(message))
		if err == nil {
			return commit, nil
		}
		// The other writer may still hold the ref's lock: back off a little.
		if again, err := retry.Again(ctx, err); !again {
			return plumbing.ZeroHash, err
		}
	}
}

func subject(message string) string {
	for i, c := range message {
		if c == '\n' {
			return message[:i]
		}
	}
	return message
}

// indexWait bounds how long planq waits for another git process's index.lock.
const indexWait = 10 * time.Second

// runWaitingForIndex runs a git command that writes the index, retrying
// while another git process holds index.lock: git itself fails at once, but
// an agent's plain git commit in the same worktree takes only milliseconds.
func (w *Worktree) runWaitingForIndex(ctx context.Context, args ...string) error {
	deadline := time.Now().Add(indexWait)
	for delay := 5 * time.Millisecond; ; delay = min(delay*2, 200*time.Millisecond) {
		_, err := w.git.Run(ctx, args...)
		if err == nil || !stderrContains(err, "index.lock") || time.Now().After(deadline) {
			return err
		}
		if err := Sleep(ctx, delay); err != nil {
			return err
		}
	}
}

// Sleep waits d before a retry, or returns ctx's error when it ends first.
func Sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}
