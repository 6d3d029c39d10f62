package staterepo

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
)

// WorktreeInfo is a linked worktree registered in the state repository.
type WorktreeInfo struct {
	// ID is the worktree's name under <repo>/worktrees.
	ID string
	// Path is where the worktree is checked out.
	Path string
	// Branch is the branch checked out there ("" when detached).
	Branch string
	// Missing is true when the registered directory is gone.
	Missing bool
}

// Worktrees lists the linked worktrees, read straight from the repository's
// administrative files (no git process), sorted by path.
func (r *Repo) Worktrees() ([]WorktreeInfo, error) { return worktreesOf(r.Path) }

// CodeWorktrees lists the linked worktrees of the code repository whose
// shared git directory is commonGitDir, as Repo.Worktrees does.
func CodeWorktrees(commonGitDir string) ([]WorktreeInfo, error) { return worktreesOf(commonGitDir) }

func worktreesOf(gitDir string) ([]WorktreeInfo, error) {
	dir := filepath.Join(gitDir, "worktrees")
	entries, err := os.ReadDir(dir)
	if isNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("failed to list worktrees: %w", err)
	}
	var out []WorktreeInfo
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		admin := filepath.Join(dir, e.Name())
		gitdir, err := os.ReadFile(filepath.Join(admin, "gitdir"))
		if err != nil {
			continue // half-made by a crashed 'git worktree add'; prune removes it
		}
		wt := WorktreeInfo{ID: e.Name(), Path: filepath.Dir(strings.TrimSpace(string(gitdir)))}
		if head, err := os.ReadFile(filepath.Join(admin, "HEAD")); err == nil {
			if ref, ok := headBranch(head); ok {
				wt.Branch = ref
			}
		}
		if _, err := os.Stat(filepath.Join(wt.Path, ".git")); err != nil {
			wt.Missing = true
		}
		out = append(out, wt)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// WorktreeOf returns the worktree that has branch checked out.
func (r *Repo) WorktreeOf(branch string) (WorktreeInfo, bool, error) {
	wts, err := r.Worktrees()
	if err != nil {
		return WorktreeInfo{}, false, err
	}
	for _, wt := range wts {
		if wt.Branch == branch {
			return wt, true, nil
		}
	}
	return WorktreeInfo{}, false, nil
}

// AddWorktree checks out an existing branch in a new linked worktree at path.
func (r *Repo) AddWorktree(ctx context.Context, path, branch string) error {
	if _, err := r.git.Run(ctx, "worktree", "add", "--quiet", path, branch); err != nil {
		if stderrContains(err, "already checked out") || stderrContains(err, "already used by worktree") {
			return planqerr.New(planqerr.Exists, "branch "+branch, "is already checked out in another worktree").
				WithHint("run 'planq list' to see where, or 'planq doctor --fix' if that worktree is gone")
		}
		return fmt.Errorf("failed to add worktree %s: %w", path, err)
	}
	return nil
}

// RemoveWorktree unregisters the worktree at path and deletes its files.
// Without force git refuses when the worktree has uncommitted changes.
func (r *Repo) RemoveWorktree(ctx context.Context, path string, force bool) error {
	args := []string{"worktree", "remove"}
	if force {
		args = append(args, "--force")
	}
	if _, err := r.git.Run(ctx, append(args, path)...); err != nil {
		return fmt.Errorf("failed to remove worktree %s: %w", path, err)
	}
	return nil
}

// PruneWorktrees drops registrations of worktrees whose directory is gone.
func (r *Repo) PruneWorktrees(ctx context.Context) error {
	if _, err := r.git.Run(ctx, "worktree", "prune"); err != nil {
		return fmt.Errorf("failed to prune worktrees: %w", err)
	}
	return nil
}

// RepairWorktree re-links a worktree that was moved to path.
func (r *Repo) RepairWorktree(ctx context.Context, path string) error {
	if _, err := r.git.Run(ctx, "worktree", "repair", path); err != nil {
		return fmt.Errorf("failed to repair worktree %s: %w", path, err)
	}
	return nil
}

// Worktree is a checked-out worktree of the state repository.
type Worktree struct {
	Dir  string
	Repo *Repo
	git  Git
}

// OpenWorktree returns the worktree checked out at dir.
func (r *Repo) OpenWorktree(dir string) *Worktree {
	return &Worktree{Dir: dir, Repo: r, git: Git{Dir: dir}}
}

// Branch returns the branch checked out in the worktree, read from its HEAD.
func (w *Worktree) Branch() (string, error) {
	gitdir, err := worktreeGitDir(w.Dir)
	if err != nil {
		return "", err
	}
	head, err := os.ReadFile(filepath.Join(gitdir, "HEAD"))
	if err != nil {
		if m, dead := DeadMountAt(w.Dir, w.Repo.Path); dead {
			return "", m.Err()
		}
		return "", fmt.Errorf("failed to read HEAD of %s: %w", w.Dir, err)
	}
	ref, ok := headBranch(head)
	if !ok {
		return "", planqerr.New(planqerr.Corrupt, w.Dir, "HEAD is detached").
			WithHint("check out the agent branch again: git -C %s switch <agent-branch>", w.Dir)
	}
	return ref, nil
}

// headBranch reads the branch a HEAD file names; false when detached.
func headBranch(head []byte) (string, bool) {
	ref, ok := strings.CutPrefix(strings.TrimSpace(string(head)), "ref: ")
	if !ok {
		return "", false
	}
	return project.BranchOfRef(ref)
}

func worktreeGitDir(dir string) (string, error) {
	data, err := os.ReadFile(filepath.Join(dir, ".git"))
	if err != nil {
		return "", fmt.Errorf("failed to read %s: %w", filepath.Join(dir, ".git"), err)
	}
	target, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return "", planqerr.New(planqerr.Corrupt, filepath.Join(dir, ".git"), "not a worktree link")
	}
	target = strings.TrimSpace(target)
	if !filepath.IsAbs(target) {
		target = filepath.Join(dir, target)
	}
	return target, nil
}

// Status returns `git status --porcelain` of the worktree, one line a path.
func (w *Worktree) Status(ctx context.Context) ([]string, error) {
	out, err := w.git.Run(ctx, "status", "--porcelain", "--untracked-files=all")
	if err != nil {
		return nil, fmt.Errorf("failed to read status of %s: %w", w.Dir, err)
	}
	if out == "" {
		return nil, nil
	}
	return strings.Split(out, "\n"), nil
}

// IsLiveWorktree reports whether dir is a linked worktree whose registration
// still exists, as opposed to a directory a crash or a move left behind.
func IsLiveWorktree(dir string) bool {
	gitdir, err := worktreeGitDir(dir)
	if err != nil {
		return false
	}
	_, err = os.Stat(filepath.Join(gitdir, "HEAD"))
	return err == nil
}

// RegisteredPath returns where the repository believes the worktree at dir
// is checked out. It differs from dir after the checkout was moved.
func RegisteredPath(dir string) (string, error) {
	admin, err := worktreeGitDir(dir)
	if err != nil {
		return "", err
	}
	data, err := os.ReadFile(filepath.Join(admin, "gitdir"))
	if err != nil {
		return "", fmt.Errorf("failed to read the registration of %s: %w", dir, err)
	}
	return filepath.Dir(strings.TrimSpace(string(data))), nil
}

// StaleLocks lists git lock files in the repository at path (and its
// worktrees' private directories) older than age: a git process that died
// left them, and they block every later writer.
func StaleLocks(path string, age time.Duration) ([]string, error) {
	var locks []string
	cutoff := time.Now().Add(-age)
	err := filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable corners are not ours to judge
		}
		// Object stores and planq's own flock files (<repo>/planq) hold no git
		// locks; refs/planq/... does: the remotes' tracking refs.
		if d.IsDir() && (d.Name() == "objects" || p == filepath.Join(path, "planq")) {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".lock") {
			if info, err := d.Info(); err == nil && info.ModTime().Before(cutoff) {
				locks = append(locks, p)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("failed to look for lock files in %s: %w", path, err)
	}
	return locks, nil
}
