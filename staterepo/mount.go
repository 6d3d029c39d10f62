package staterepo

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
)

// DeadMount is an agent worktree whose link into the state repository leads
// nowhere: the repository was moved away (Gone), or the repository now at
// that place does not register it. Its history is in the repository it was
// mounted from, so nothing may be made or moved over it.
type DeadMount struct {
	// Dir is the worktree, <checkout>/.planq/agent.
	Dir string
	// Admin is <repo>/worktrees/<id>, what Dir's .git file names.
	Admin string
	// Repo is the state repository the link points into.
	Repo string
	// Gone is true when no repository is at Repo at all.
	Gone bool
	// Replaced is true when the repository at Repo provably is not the one
	// the agent was mounted from: it was made after the mount, or it has no
	// agent branch at all.
	Replaced bool
}

// DeadMountAt reports whether the worktree at dir links into the state
// repository at repoPath and that link is dead. A directory that is not a
// worktree of repoPath at all (a crash's leftovers, another project's) is
// not a dead mount: it holds no claim on repoPath's history.
func DeadMountAt(dir, repoPath string) (DeadMount, bool) {
	admin, err := worktreeGitDir(dir)
	if err != nil || !under(admin, filepath.Join(repoPath, "worktrees")) {
		return DeadMount{}, false
	}
	m := DeadMount{Dir: dir, Admin: admin, Repo: repoPath}
	if !Exists(repoPath) {
		m.Gone = true
		return m, true
	}
	if _, err := os.Stat(filepath.Join(admin, "HEAD")); err == nil {
		return DeadMount{}, false
	}
	m.Replaced = madeAfter(repoPath, filepath.Join(dir, ".git")) || !hasAgentBranch(repoPath)
	return m, true
}

// DeadMounts lists the dead mounts in every checkout of p's code
// repository: the main one, this one, and each linked worktree.
func DeadMounts(p *project.Project) []DeadMount {
	var out []DeadMount
	for _, co := range checkoutsOf(p) {
		if m, ok := DeadMountAt(filepath.Join(co, project.AgentMount), p.StateRepo()); ok {
			out = append(out, m)
		}
	}
	return out
}

// CheckMounts fails with the first dead mount's explanation when the state
// repository is gone and an agent in any checkout was mounted from it, and
// when the agent mounted in this workspace is not registered in the
// repository there. Every command opens the state repository through it, so
// none hides an agent's history behind a new repository, or acts on one that
// is not the agent's.
func CheckMounts(p *project.Project) error {
	if !Exists(p.StateRepo()) {
		if dead := DeadMounts(p); len(dead) > 0 {
			return dead[0].Err()
		}
		return nil
	}
	if p.Workspace == "" { // the user layer: mounted in no checkout
		return nil
	}
	if m, ok := DeadMountAt(filepath.Join(p.Workspace, project.AgentMount), p.StateRepo()); ok {
		return m.Err()
	}
	return nil
}

// Err explains the dead mount, and how to put the repository back, as a
// NotFound error: the repository the agent committed to is not where it was.
func (m DeadMount) Err() *planqerr.Error {
	switch {
	case m.Gone:
		return planqerr.New(planqerr.NotFound, m.Repo, "state repository is gone, and the agent mounted at %s committed to it: its history is in that repository, wherever it went", m.Dir).
			WithHint("move it back to %s (mv <where it is now> %s); planq makes no new one in its place. Only if it is lost for good: move %s out of the checkout, then run 'planq init'", m.Repo, m.Repo, m.Dir)
	case m.Replaced:
		return planqerr.New(planqerr.NotFound, m.Dir, "was mounted from %s, and the state repository there now is a new one without it: the agent's history is in the repository that was moved away", m.Repo).
			WithHint("move the new one aside and the old one back: mv %s %s.new && mv <where the old one is> %s", m.Repo, m.Repo, m.Repo)
	default:
		return planqerr.New(planqerr.NotFound, m.Dir, "is not registered in the state repository %s (it has no %s): the repository was replaced, or the registration pruned", m.Repo, m.Admin).
			WithHint("if the agent's repository was moved away, move this one aside and that one back (mv %s %s.new && mv <where it is> %s); if not, move %s out of the checkout and mount the agent again: planq create NAME --resume --here", m.Repo, m.Repo, m.Repo, m.Dir)
	}
}

// checkoutsOf lists p's code checkouts, each once: this workspace, the
// project root, the main worktree and every live linked worktree.
func checkoutsOf(p *project.Project) []string {
	var out []string
	seen := map[string]bool{}
	add := func(dir string) {
		if dir != "" && !seen[filepath.Clean(dir)] {
			seen[filepath.Clean(dir)] = true
			out = append(out, dir)
		}
	}
	add(p.Workspace)
	add(p.Root)
	if filepath.Base(p.CommonGitDir) == ".git" {
		add(filepath.Dir(p.CommonGitDir))
	}
	if p.CommonGitDir == "" {
		return out
	}
	if wts, err := CodeWorktrees(p.CommonGitDir); err == nil {
		for _, wt := range wts {
			if !wt.Missing {
				add(wt.Path)
			}
		}
	}
	return out
}

// under reports whether path lies inside dir, resolving symbolic links in
// dir's parent (PLANQ_HOME under /tmp is /private/tmp on macOS, and git
// writes real paths): dir itself may be gone.
func under(path, dir string) bool {
	path = filepath.Clean(path)
	for _, d := range []string{dir, resolveParent(dir)} {
		if strings.HasPrefix(path, filepath.Clean(d)+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

func resolveParent(path string) string {
	parent, rest := filepath.Dir(path), filepath.Base(path)
	for parent != filepath.Dir(parent) {
		if real, err := filepath.EvalSymlinks(parent); err == nil {
			return filepath.Join(real, rest)
		}
		parent, rest = filepath.Dir(parent), filepath.Join(filepath.Base(parent), rest)
	}
	return path
}

// madeAfter reports whether the repository at repoPath began after file
// was written: global's reflog starts when the repository was made (planq
// sets core.logAllRefUpdates), and git writes a worktree's .git file once,
// when it adds the worktree. Same second counts as after: nobody mounts an
// agent and prunes its registration within one.
func madeAfter(repoPath, file string) bool {
	info, err := os.Stat(file)
	if err != nil {
		return false
	}
	made, ok := firstReflogTime(filepath.Join(repoPath, "logs", "refs", "heads", project.GlobalBranch))
	return ok && made.Unix() >= info.ModTime().Unix()
}

// firstReflogTime reads the time of a reflog's first entry:
// "<old> <new> <name> <<email>> <unix> <tz>\t<message>".
func firstReflogTime(path string) (time.Time, bool) {
	f, err := os.Open(path)
	if err != nil {
		return time.Time{}, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	if !sc.Scan() {
		return time.Time{}, false
	}
	return reflogTime(sc.Text())
}

// reflogTime reads the time of one reflog line.
func reflogTime(line string) (time.Time, bool) {
	head, _, _ := strings.Cut(line, "\t")
	i := strings.LastIndex(head, "> ")
	if i < 0 {
		return time.Time{}, false
	}
	fields := strings.Fields(head[i+2:])
	if len(fields) == 0 {
		return time.Time{}, false
	}
	sec, err := strconv.ParseInt(fields[0], 10, 64)
	if err != nil {
		return time.Time{}, false
	}
	return time.Unix(sec, 0), true
}

// hasAgentBranch reports whether the repository at repoPath has any agent
// branch, loose or packed.
func hasAgentBranch(repoPath string) bool {
	r, err := Open(repoPath)
	if err != nil {
		return true // cannot tell: do not claim it was replaced
	}
	branches, err := r.Branches(project.AgentBranchPrefix)
	return err != nil || len(branches) > 0
}
