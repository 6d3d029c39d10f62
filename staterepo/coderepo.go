package staterepo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"github.com/planq-dev/planq/planqerr"
)

// CodeRepo is the user's code repository, seen from one of its checkouts.
// planq only ever adds and removes worktrees there and reads its state; it
// never stages or commits the user's code.
type CodeRepo struct {
	Dir string
	git Git
}

// OpenCode returns the code repository checked out at dir.
func OpenCode(dir string) *CodeRepo { return &CodeRepo{Dir: dir, git: Git{Dir: dir}} }

// BranchExists reports whether the code repository has a local branch,
// read in process.
func (c *CodeRepo) BranchExists(branch string) bool {
	_, common, err := codeGitDirs(c.Dir)
	if err != nil {
		return false
	}
	_, err = refStorage(common).Reference(plumbing.NewBranchReferenceName(branch))
	return err == nil
}

// ValidBranchName reports whether name follows git's rules for branch names
// (git check-ref-format --branch), checked in process.
func ValidBranchName(name string) bool {
	return plumbing.NewBranchReferenceName(name).Validate() == nil
}

// AddWorktree checks out branch in a new worktree at path, creating the
// branch from HEAD when create is set.
func (c *CodeRepo) AddWorktree(ctx context.Context, path, branch string, create bool) error {
	args := []string{"worktree", "add", "--quiet"}
	if create {
		args = append(args, "-b", branch, path, "HEAD")
	} else {
		args = append(args, path, branch)
	}
	if _, err := c.git.Run(ctx, args...); err != nil {
		switch {
		case stderrContains(err, "not a valid object name: 'HEAD'") || stderrContains(err, "invalid reference: HEAD"):
			return planqerr.New(planqerr.NotInitialized, c.Dir, "the code repository has no commit yet, so a workspace has nothing to check out").
				WithHint("commit something first (git commit --allow-empty -m start), or mount the agent in this checkout: planq create NAME --here")
		case stderrContains(err, "is already checked out at") || stderrContains(err, "is already used by worktree at"):
			where := "there"
			var ge *GitError
			if errors.As(err, &ge) {
				if m := checkedOutAtRE().FindStringSubmatch(ge.Stderr); m != nil {
					where = m[1]
				}
			}
			return planqerr.New(planqerr.Exists, "branch "+branch, "is checked out at %s already; git checks a branch out in one place at a time", where).
				WithHint("give the workspace a branch of its own (--branch NEW, or leave --branch out), or mount the agent where it is checked out: cd %s && planq create NAME --here", where)
		}
		return fmt.Errorf("failed to create code worktree %s: %w", path, err)
	}
	return nil
}

var checkedOutAtRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`already (?:checked out|used by worktree) at '([^']+)'`)
})

// RemoveWorktree removes the code worktree at path; force drops uncommitted
// changes.
func (c *CodeRepo) RemoveWorktree(ctx context.Context, path string, force bool) error {
	args := []string{"worktree", "remove"}
	if force {
		args = append(args, "--force", "--force")
	}
	if _, err := c.git.Run(ctx, append(args, path)...); err != nil {
		return fmt.Errorf("failed to remove code worktree %s: %w", path, err)
	}
	return nil
}

// DeleteBranch deletes a code branch planq created and nothing uses yet.
func (c *CodeRepo) DeleteBranch(ctx context.Context, branch string) error {
	if _, err := c.git.Run(ctx, "branch", "-D", branch); err != nil {
		return fmt.Errorf("failed to delete code branch %s: %w", branch, err)
	}
	return nil
}

// Changes lists uncommitted changes of the checkout at dir (porcelain lines),
// leaving out the mounted agent, which is never part of the code.
func (c *CodeRepo) Changes(ctx context.Context, dir string) ([]string, error) {
	out, err := (Git{Dir: dir}).Run(ctx, "status", "--porcelain", "--", ".", ":(exclude).planq/agent")
	if err != nil {
		return nil, fmt.Errorf("failed to read status of %s: %w", dir, err)
	}
	if out == "" {
		return nil, nil
	}
	return strings.Split(out, "\n"), nil
}

// Head describes what a code checkout has checked out.
type Head struct {
	// Branch is the short branch name, empty when HEAD is detached.
	Branch string
	// Commit is HEAD's commit, empty in a repository without commits.
	Commit string
}

// CodeHead reads HEAD of the code checkout at dir in process: the branch
// from the checkout's own HEAD, the commit from the repository's refs.
func CodeHead(dir string) (Head, error) {
	gitDir, common, err := codeGitDirs(dir)
	if err != nil {
		return Head{}, fmt.Errorf("failed to open code repository %s: %w", dir, err)
	}
	head, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return Head{}, fmt.Errorf("failed to read HEAD of %s: %w", dir, err)
	}
	var h Head
	branch, onBranch := headBranch(head)
	if !onBranch {
		h.Commit = strings.TrimSpace(string(head)) // detached
		return h, nil
	}
	h.Branch = branch
	ref, err := storer.ResolveReference(refStorage(common), plumbing.NewBranchReferenceName(branch))
	switch {
	case errors.Is(err, plumbing.ErrReferenceNotFound): // no commit yet
	case err != nil:
		return Head{}, fmt.Errorf("failed to resolve HEAD of %s: %w", dir, err)
	default:
		h.Commit = ref.Hash().String()
	}
	return h, nil
}

// codeGitDirs finds the git directory of the checkout at dir (.git, or
// where a linked worktree's .git file points) and the common directory
// that holds the repository's refs and objects.
func codeGitDirs(dir string) (gitDir, common string, err error) {
	gitDir = filepath.Join(dir, ".git")
	if fi, err := os.Stat(gitDir); err != nil {
		return "", "", err
	} else if !fi.IsDir() {
		if gitDir, err = worktreeGitDir(dir); err != nil {
			return "", "", err
		}
	}
	common = gitDir
	if data, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		common = strings.TrimSpace(string(data))
		if !filepath.IsAbs(common) {
			common = filepath.Join(gitDir, common)
		}
	}
	return gitDir, common, nil
}

// refStorage reads refs (loose and packed) of the git directory dir.
func refStorage(dir string) *filesystem.Storage {
	return filesystem.NewStorage(osfs.New(dir, osfs.WithBoundOS()), cache.NewObjectLRUDefault())
}

// Prune drops the code repository's registrations of worktrees whose
// directory is gone, so their branches can be checked out again.
func (c *CodeRepo) Prune(ctx context.Context) error {
	if _, err := c.git.Run(ctx, "worktree", "prune"); err != nil {
		return fmt.Errorf("failed to prune code worktrees: %w", err)
	}
	return nil
}

// Repair re-links the code repository's worktrees after a move.
func (c *CodeRepo) Repair(ctx context.Context) error {
	if _, err := c.git.Run(ctx, "worktree", "repair"); err != nil {
		return fmt.Errorf("failed to repair code worktrees: %w", err)
	}
	return nil
}

// HooksDir is where git looks for the code repository's hooks
// (core.hooksPath, else .git/hooks).
func (c *CodeRepo) HooksDir(ctx context.Context) (string, error) {
	out, err := c.git.Run(ctx, "rev-parse", "--git-path", "hooks")
	if err != nil {
		return "", fmt.Errorf("failed to find the hooks directory: %w", err)
	}
	if !filepath.IsAbs(out) {
		out = filepath.Join(c.Dir, out)
	}
	return out, nil
}

// Tracked reports whether git tracks the file at path (absolute, or
// relative to the checkout): whether the index holds it.
func (c *CodeRepo) Tracked(ctx context.Context, path string) (bool, error) {
	_, err := c.git.Run(ctx, "--literal-pathspecs", "ls-files", "--error-unmatch", "--", path)
	var exit *exec.ExitError
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &exit) && exit.ExitCode() == 1:
		return false, nil // git's answer for a path it does not track
	}
	return false, fmt.Errorf("failed to ask git whether it tracks %s: %w", path, err)
}

// CodeCommit describes one commit of the code repository.
type CodeCommit struct {
	Hash    string
	Subject string
	Files   []string
}

// LastCommit reads HEAD's commit of the checkout: hash, subject and files.
func (c *CodeRepo) LastCommit(ctx context.Context) (CodeCommit, error) {
	out, err := c.git.Run(ctx, "log", "-1", "--format=%H%n%s", "--name-only", "HEAD")
	if err != nil {
		return CodeCommit{}, fmt.Errorf("failed to read the last commit: %w", err)
	}
	lines := strings.Split(out, "\n")
	if len(lines) < 2 {
		return CodeCommit{}, fmt.Errorf("failed to read the last commit: unexpected output %q", out)
	}
	cc := CodeCommit{Hash: lines[0], Subject: lines[1]}
	for _, f := range lines[2:] {
		if f = strings.TrimSpace(f); f != "" {
			cc.Files = append(cc.Files, f)
		}
	}
	return cc, nil
}

// RootCommits lists the commits without parents that HEAD descends from:
// what every clone of a repository shares, and unrelated repositories do
// not. A repository without commits has none.
func (c *CodeRepo) RootCommits(ctx context.Context) ([]string, error) {
	if _, err := c.git.Run(ctx, "rev-parse", "--verify", "--quiet", "HEAD"); err != nil {
		var ge *GitError
		if errors.As(err, &ge) {
			return nil, nil // no commits yet
		}
		return nil, fmt.Errorf("failed to read HEAD of %s: %w", c.Dir, err)
	}
	out, err := c.git.Run(ctx, "rev-list", "--max-parents=0", "HEAD")
	if err != nil {
		return nil, fmt.Errorf("failed to find the root commits of %s: %w", c.Dir, err)
	}
	return strings.Fields(out), nil
}

// Blobs returns the blob of each of paths in the tree of rev (a commit, or
// HEAD): one git ls-tree for them all, paths taken literally. A path rev
// does not hold is absent from the map. Many paths are listed from the
// whole tree instead, so the command line stays short.
func (c *CodeRepo) Blobs(ctx context.Context, rev string, paths []string) (map[string]string, error) {
	out := make(map[string]string, len(paths))
	if len(paths) == 0 {
		return out, nil
	}
	args := []string{"--literal-pathspecs", "ls-tree", "-r", "-z", "--end-of-options", rev}
	if len(paths) <= maxPathArgs {
		args = append(append(args, "--"), paths...)
	}
	listing, err := c.git.Run(ctx, args...)
	if err != nil {
		return nil, fmt.Errorf("failed to list %s of %s: %w", strings.Join(paths[:min(len(paths), 3)], ", "), rev, err)
	}
	wanted := make(map[string]bool, len(paths))
	for _, p := range paths {
		wanted[p] = true
	}
	for _, entry := range strings.Split(listing, "\x00") {
		// "<mode> blob <hash>\t<path>"
		meta, p, ok := strings.Cut(entry, "\t")
		fields := strings.Fields(meta)
		if ok && len(fields) == 3 && fields[1] == "blob" && wanted[p] {
			out[p] = fields[2]
		}
	}
	return out, nil
}

// maxPathArgs bounds the paths Blobs names on git's command line.
const maxPathArgs = 256
