package staterepo

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// InProgress names the operation the checkout is in the middle of (a
// rebase, a merge, a cherry-pick, a revert, a bisect), "" when none: a
// commit made then would land in the middle of the user's work.
func (c *CodeRepo) InProgress() (string, error) {
	gitDir, _, err := codeGitDirs(c.Dir)
	if err != nil {
		return "", fmt.Errorf("failed to open code repository %s: %w", c.Dir, err)
	}
	for _, probe := range []struct{ name, what string }{
		{"rebase-merge", "a rebase"}, {"rebase-apply", "a rebase or git am"}, {"MERGE_HEAD", "a merge"},
		{"CHERRY_PICK_HEAD", "a cherry-pick"}, {"REVERT_HEAD", "a revert"}, {"BISECT_LOG", "a bisect"},
	} {
		if _, err := os.Stat(filepath.Join(gitDir, probe.name)); err == nil {
			return probe.what, nil
		}
	}
	return "", nil
}

// PathChanges lists the porcelain status lines of paths in the checkout:
// staged or unstaged changes, or untracked files, of those paths alone.
func (c *CodeRepo) PathChanges(ctx context.Context, paths []string) ([]string, error) {
	args := append([]string{"--literal-pathspecs", "status", "--porcelain", "--untracked-files=all", "--"}, paths...)
	out, err := c.git.Run(ctx, args...)
	if err != nil {
		return nil, fmt.Errorf("failed to read the status of %s: %w", strings.Join(paths, ", "), err)
	}
	if out == "" {
		return nil, nil
	}
	return strings.Split(out, "\n"), nil
}

// CommitOnly stages paths, as they are in the checkout, and commits them
// alone (git commit --only): whatever else the user has staged stays
// staged and out of the commit. It never pushes. It returns the commit.
func (c *CodeRepo) CommitOnly(ctx context.Context, paths []string, message string) (string, error) {
	if _, err := c.git.Run(ctx, append([]string{"--literal-pathspecs", "add", "--"}, paths...)...); err != nil {
		return "", fmt.Errorf("failed to stage %s: %w", strings.Join(paths, ", "), err)
	}
	args := append([]string{"--literal-pathspecs", "commit", "--quiet", "--only", "--file", "-", "--"}, paths...)
	if _, err := c.git.RunInput(ctx, strings.NewReader(message), args...); err != nil {
		return "", fmt.Errorf("failed to commit %s: %w", strings.Join(paths, ", "), err)
	}
	head, err := CodeHead(c.Dir) // in process: no git to start
	if err != nil {
		return "", fmt.Errorf("failed to read the new commit: %w", err)
	}
	return head.Commit, nil
}

// Unstage takes paths out of the index again, back to HEAD's version, after
// a commit of them failed.
func (c *CodeRepo) Unstage(ctx context.Context, paths []string) error {
	if _, err := c.git.Run(ctx, append([]string{"--literal-pathspecs", "reset", "--quiet", "--"}, paths...)...); err != nil {
		return fmt.Errorf("failed to unstage %s: %w", strings.Join(paths, ", "), err)
	}
	return nil
}
