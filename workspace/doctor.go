package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
	"github.com/planq-dev/planq/team"
)

// StaleLockAge is how old a git lock file must be before doctor calls it
// left over: live git processes hold theirs for well under a second.
var StaleLockAge = 2 * time.Minute

// Finding is one problem doctor found, and whether it fixed it.
type Finding struct {
	Check   string `json:"check"`
	Problem string `json:"problem"`
	Fix     string `json:"fix"`
	Fixed   bool   `json:"fixed"`
	// Manual is true when doctor cannot repair it: Fix says what to do.
	Manual bool   `json:"manual,omitempty"`
	Err    string `json:"error,omitempty"`
}

// maxPasses bounds how often doctor looks again after repairing: one
// repair can uncover the next problem (a new state repository makes a dead
// mount visible), and a user expects one run to repair all it can.
const maxPasses = 3

// Doctor looks for the problems that crashes, moves and other tools leave
// behind, and with fix repairs them, looking again after each round of
// repairs until nothing more can be done. It returns everything it found:
// repaired, failed, and what remains for the user. It never deletes
// anyone's files: what it must clear away it moves under $PLANQ_HOME/orphans.
func Doctor(ctx context.Context, p *project.Project, fix bool) ([]Finding, error) {
	var all []Finding
	for pass := 0; pass < maxPasses; pass++ {
		found, err := doctorPass(ctx, p, fix)
		if err != nil {
			return all, err
		}
		repaired := false
		for _, f := range found {
			if f.Fixed {
				all = append(all, f)
				repaired = true
			}
		}
		if !fix || !repaired || pass == maxPasses-1 {
			for _, f := range found {
				if !f.Fixed {
					all = append(all, f)
				}
			}
			return all, nil
		}
	}
	return all, nil
}

// doctorRun gathers one pass's findings, repairing each as it is found
// when fix is set.
type doctorRun struct {
	fix bool
	out []Finding
}

// add keeps f; with fix, repair (nil for a problem doctor leaves to the
// user) runs first and f says how it went.
func (d *doctorRun) add(f Finding, repair func() error) {
	f.Manual = repair == nil
	if d.fix && repair != nil {
		if err := repair(); err != nil {
			f.Err = err.Error()
		} else {
			f.Fixed = true
		}
	}
	d.out = append(d.out, f)
}

func doctorPass(ctx context.Context, p *project.Project, fix bool) ([]Finding, error) {
	d := &doctorRun{fix: fix}
	if err := checkExclude(p, d.add); err != nil {
		return nil, err
	}
	checkCodeWorktrees(ctx, p, d.add)
	bare := p.StateRepo()
	dead := staterepo.DeadMounts(p)
	if !d.haveStateRepo(ctx, p, dead) {
		return d.out, nil // nothing below runs without it
	}
	if open, err := d.checkExtensions(ctx, bare, "extensions", "state repository"); err != nil {
		return nil, err
	} else if !open {
		return d.out, nil // nothing below can open the repository
	}
	if err := d.checkLocks(bare, "locks", ""); err != nil {
		return nil, err
	}
	repo, err := staterepo.Open(bare)
	if err != nil {
		return nil, err
	}
	checkGlobalIsPlanq(repo, bare, d.add)
	if checkMounts(ctx, p, repo, dead, d.add) {
		// The records checks open the store as a command does, and that
		// refuses this workspace until the repository is sorted out.
		return d.out, nil
	}
	if err := checkState(ctx, p, repo, d.add); err != nil {
		return nil, err
	}
	return d.out, nil
}

// checkExclude finds .planq/agent/ missing from the code repository's
// exclude file.
func checkExclude(p *project.Project, add func(Finding, func() error)) error {
	added, err := excludePresent(p.CommonGitDir)
	if err != nil || added {
		return err
	}
	add(Finding{Check: "exclude", Problem: ".planq/agent/ is not excluded from the code repository",
		Fix: "add /.planq/agent/ to " + filepath.Join(p.CommonGitDir, "info", "exclude")},
		func() error { _, err := EnsureExclude(p.CommonGitDir); return err })
	return nil
}

// checkCodeWorktrees finds worktrees the code repository registers that
// are gone.
func checkCodeWorktrees(ctx context.Context, p *project.Project, add func(Finding, func() error)) {
	stale, err := staterepo.CodeWorktrees(p.CommonGitDir)
	if err != nil {
		return
	}
	for _, wt := range stale {
		if wt.Missing {
			add(Finding{Check: "code-worktrees", Problem: fmt.Sprintf("the code repository still registers the worktree %s, which is gone", wt.Path),
				Fix: "prune the registration (git worktree prune in the code repository); its branch stays"},
				func() error { return staterepo.OpenCode(p.Root).Prune(ctx) })
		}
	}
}

// haveStateRepo finds the state repository missing, and says whether it
// is there (made again by this pass) for the checks that need it.
//
// A mount whose link into the state repository is dead holds a claim on
// the history of the repository it was mounted from: a new empty one
// would hide that history, and the user's move back would find its place
// taken; moving the mount aside would orphan the agent. Both are for the
// user to settle.
func (d *doctorRun) haveStateRepo(ctx context.Context, p *project.Project, dead []staterepo.DeadMount) bool {
	bare := p.StateRepo()
	if staterepo.Exists(bare) {
		return true
	}
	if len(dead) > 0 {
		for _, m := range dead {
			d.add(Finding{Check: "state-repo", Problem: fmt.Sprintf("state repository %s is missing, and the agent mounted at %s committed to it", bare, m.Dir),
				Fix: "move the state repository back to " + bare + " (its history is nowhere else; planq makes no new one in its place), then run 'planq doctor --fix' again"}, nil)
		}
		return false
	}
	d.add(Finding{Check: "state-repo", Problem: "state repository " + bare + " is missing", Fix: "create it (planq state init)"},
		func() error { _, err := InitState(ctx, p); return err })
	return d.fix && staterepo.Exists(bare)
}

// checkExtensions finds repository extensions planq cannot read in the
// repository at bare (what names it), and says whether it can be opened.
func (d *doctorRun) checkExtensions(ctx context.Context, bare, check, what string) (bool, error) {
	exts, err := staterepo.UnsupportedExtensions(bare)
	if err != nil {
		return false, err
	}
	for _, ext := range exts {
		d.add(Finding{Check: check, Problem: what + " sets extensions." + ext + ", which planq cannot read",
			Fix: "unset extensions." + ext}, func() error { return staterepo.UnsetExtension(ctx, bare, ext) })
	}
	return len(exts) == 0 || d.fix, nil
}

// checkLocks finds lock files a crash left in the repository at bare
// (where, if not "", says which it is).
func (d *doctorRun) checkLocks(bare, check, where string) error {
	locks, err := staterepo.StaleLocks(bare, StaleLockAge)
	if err != nil {
		return err
	}
	for _, l := range locks {
		d.add(Finding{Check: check, Problem: "left-over lock file " + l + where, Fix: "remove it"}, func() error { return os.Remove(l) })
	}
	return nil
}

// checkGlobalIsPlanq finds global pointing at history that is not planq's.
func checkGlobalIsPlanq(repo *staterepo.Repo, bare string, add func(Finding, func() error)) {
	tip, err := repo.Tip(project.GlobalBranch)
	if err != nil {
		return
	}
	if ok, err := team.IsPlanqState(repo, tip); err == nil && !ok {
		add(Finding{Check: "global", Problem: fmt.Sprintf("global (%s) is not planq state: no planq README and no record directory; other history was pulled or pushed into it", tip.String()[:12]),
			Fix: "none automatic: point global back at its last planq commit (git -C " + bare + " reflog global shows them) with git update-ref"}, nil)
	}
}

// checkMounts finds dead mounts, and a workspace's agent directory that is
// no mounted agent or was moved; it says whether this workspace's mount is
// dead.
func checkMounts(ctx context.Context, p *project.Project, repo *staterepo.Repo, dead []staterepo.DeadMount, add func(Finding, func() error)) bool {
	agentDir := filepath.Join(p.Workspace, project.AgentMount)
	deadHere := false
	for _, m := range dead {
		e := m.Err()
		add(Finding{Check: "mount", Problem: e.Error(), Fix: e.Hint + " (doctor moves none of its files)"}, nil)
		deadHere = deadHere || samePath(m.Dir, agentDir)
	}
	if _, err := os.Lstat(agentDir); err != nil || deadHere {
		return deadHere
	}
	if !staterepo.IsLiveWorktree(agentDir) {
		dest := filepath.Join(p.OrphansDir(), time.Now().UTC().Format("20060102T150405Z"))
		add(Finding{Check: "mount", Problem: agentDir + " is not a mounted agent (left by a crash?)",
			Fix: "move it to " + dest + " (its files are kept)"}, func() error { return moveAside(agentDir, dest) })
		return false
	}
	if reg, err := staterepo.RegisteredPath(agentDir); err == nil && !samePath(reg, agentDir) {
		add(Finding{Check: "moved", Problem: "agent worktree is registered at " + reg + " but is at " + agentDir,
			Fix: "repair the registration (git worktree repair)"}, func() error {
			if err := repo.RepairWorktree(ctx, agentDir); err != nil {
				return err
			}
			return staterepo.OpenCode(p.Root).Repair(ctx)
		})
	}
	return false
}

// checkState runs the checks of the state repository's branches, records
// and worktrees.
func checkState(ctx context.Context, p *project.Project, repo *staterepo.Repo, add func(Finding, func() error)) error {
	if err := checkBrokenTips(ctx, repo, add); err != nil {
		return err
	}
	if err := checkLostBranches(ctx, repo, add); err != nil {
		return err
	}
	if err := checkPending(ctx, p, add); err != nil {
		return err
	}
	if err := checkRecords(ctx, p, add); err != nil {
		// Something above (a lock file among the refs, say) may be why: say
		// so and go on with the other checks.
		add(Finding{Check: "records", Problem: "could not read the records: " + err.Error(),
			Fix: "repair what else doctor reports, then run it again"}, nil)
	}
	if err := checkRings(ctx, p, add); err != nil {
		add(Finding{Check: "rings", Problem: "could not read the records: " + err.Error(),
			Fix: "repair what else doctor reports, then run it again"}, nil)
	}
	wts, err := repo.Worktrees()
	if err != nil {
		return err
	}
	for _, wt := range wts {
		if wt.Missing {
			add(Finding{Check: "worktrees", Problem: fmt.Sprintf("worktree of %s is registered at %s, which is gone", wt.Branch, wt.Path),
				Fix: "prune the registration (the branch and its commits stay)"}, func() error {
				if err := repo.PruneWorktrees(ctx); err != nil {
					return err
				}
				// The code workspace it was mounted in is usually gone too.
				return staterepo.OpenCode(p.Root).Prune(ctx)
			})
		}
	}
	return nil
}

func excludePresent(commonGitDir string) (bool, error) {
	data, err := os.ReadFile(filepath.Join(commonGitDir, "info", "exclude"))
	if err != nil && !os.IsNotExist(err) {
		return false, fmt.Errorf("failed to read exclude file: %w", err)
	}
	return hasExclude(data), nil
}

func moveAside(src, dest string) error {
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return fmt.Errorf("failed to create %s: %w", filepath.Dir(dest), err)
	}
	if err := os.Rename(src, dest); err != nil {
		return fmt.Errorf("failed to move %s aside: %w", src, err)
	}
	return nil
}

func samePath(a, b string) bool {
	ra, errA := filepath.EvalSymlinks(a)
	rb, errB := filepath.EvalSymlinks(b)
	if errA != nil || errB != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return ra == rb
}

// checkRecords lists the record files no reader can use, on every branch:
// malformed, or not where a record lives. Only their writer can say what
// they meant, so doctor says where they are and leaves them.
func checkRecords(ctx context.Context, p *project.Project, add func(Finding, func() error)) error {
	store, err := agent.OpenStore(ctx, p)
	if err != nil {
		return err
	}
	defer store.Close()
	set, err := store.Records.All()
	if err != nil {
		return err
	}
	for _, line := range set.ProblemLines() {
		add(Finding{Check: "records", Problem: line,
			Fix: "fix or move the file in the .planq/agent of the agent that wrote it and commit; 'git log -p <file>' there shows how it changed"}, nil)
	}
	return nil
}

// checkPending reports record files that a mounted agent, in any
// workspace, has not committed: left by a crash between writing a record and
// committing it, written by hand, or dropped from a commit by plain git
// racing planq (git commit reads the index before it locks it, so a file
// staged in between is left out of its commit). The fix commits them.
func checkPending(ctx context.Context, p *project.Project, add func(Finding, func() error)) error {
	store, err := agent.OpenStore(ctx, p)
	if err != nil {
		return err
	}
	defer store.Close()
	mounted, err := mountedAgents(store.Repo)
	if err != nil {
		return err
	}
	for _, m := range mounted {
		wt, name := m.WorktreeInfo, m.name
		if tip, err := store.Repo.Tip(wt.Branch); err != nil || store.Repo.Readable(tip) != nil {
			// checkLostBranches or checkBrokenTips reports it; nothing can
			// be committed there until it is repaired.
			continue
		}
		status, err := store.Repo.OpenWorktree(wt.Path).Status(ctx)
		if err != nil {
			return err
		}
		var records []string
		for _, line := range status {
			if len(line) > 3 && changelog.IsRecordPath(strings.Trim(line[3:], `"`)) {
				records = append(records, line[3:])
			}
		}
		if len(records) == 0 {
			continue
		}
		a, err := store.Agent(name)
		if err != nil {
			return err
		}
		add(Finding{Check: "pending", Problem: fmt.Sprintf("%d record file(s) of agent %s are not committed, first: %s", len(records), name, records[0]),
			Fix: "commit the agent's pending state"}, func() error {
			_, _, err := a.CommitPending(ctx, "commit records left uncommitted")
			return err
		})
	}
	return nil
}

// mountedAgent is a worktree of an agent's branch that is still on disk:
// the pending and lost-branch checks look only at those (a gone one is the
// worktrees check's).
type mountedAgent struct {
	staterepo.WorktreeInfo
	name string
}

func mountedAgents(repo *staterepo.Repo) ([]mountedAgent, error) {
	wts, err := repo.Worktrees()
	if err != nil {
		return nil, err
	}
	var out []mountedAgent
	for _, wt := range wts {
		if name, ok := project.AgentOfBranch(wt.Branch); ok && !wt.Missing {
			out = append(out, mountedAgent{wt, name})
		}
	}
	return out, nil
}

// checkLostBranches finds agent branches deleted while their worktree is
// mounted ('git update-ref -d', 'git branch -D' from another checkout). The
// worktree's HEAD still names the branch, so nothing can be committed, and
// create refuses the mounted agent. The commits are still in the
// repository: the fix recreates the branch, create-only, at the newest tip
// a reflog proves it had. Records committed after that tip, if any, are
// still in the worktree's index, and the pending check commits them.
func checkLostBranches(ctx context.Context, repo *staterepo.Repo, add func(Finding, func() error)) error {
	mounted, err := mountedAgents(repo)
	if err != nil {
		return err
	}
	for _, m := range mounted {
		wt, name := m.WorktreeInfo, m.name
		if _, err := repo.Tip(wt.Branch); err == nil {
			continue
		} else if !planqerr.Is(err, planqerr.NotFound) {
			return err
		}
		problem := fmt.Sprintf("branch %s is gone, but agent %s is still mounted on it at %s (deleted under its worktree?)", wt.Branch, name, wt.Path)
		tip, found, err := repo.NewestReadableTip(wt.Branch, staterepo.ZeroHash)
		if err != nil {
			return err
		}
		if !found {
			add(Finding{Check: "branch", Problem: problem,
				Fix: fmt.Sprintf("none automatic: no reflog holds its last tip. 'git -C %[1]s fsck --unreachable' lists the commits no branch reaches; the newest whose message ends with 'Planq-Agent: %[2]s' is its tip: git -C %[1]s update-ref %[3]s <that commit> \"\"",
					repo.Path, name, project.BranchRef(wt.Branch))}, nil)
			continue
		}
		add(Finding{Check: "branch", Problem: problem,
			Fix: fmt.Sprintf("recreate it at %s, its last tip (read from %s)", tip.Commit.String()[:12], tip.From)}, func() error {
			return repo.RecreateBranch(ctx, wt.Branch, tip.Commit, "planq doctor: recreate "+wt.Branch+" at its last tip, read from "+tip.From)
		})
	}
	return nil
}

// checkBrokenTips finds branches whose tip commit (or its root tree) cannot
// be read: a damaged object file, left by a crash or a full disk. Every
// write to such an agent fails, and every read of the memory with it. The
// fix moves an agent branch back, compare-and-swap, to its newest readable
// commit, keeping the broken tip's hash (see staterepo.KeepBroken). The
// records of the lost commit are still in the worktree's index and files,
// so the pending check then commits them again. global is left to a
// person: moving it back drops what was promoted since.
func checkBrokenTips(ctx context.Context, repo *staterepo.Repo, add func(Finding, func() error)) error {
	branches, err := repo.Branches("")
	if err != nil {
		return err
	}
	names := make([]string, 0, len(branches))
	for name := range branches {
		if _, isAgent := project.AgentOfBranch(name); isAgent || name == project.GlobalBranch {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, branch := range names {
		bad := branches[branch]
		readErr := repo.Readable(bad)
		if readErr == nil {
			continue
		}
		ref := project.BranchRef(branch)
		problem := fmt.Sprintf("the tip of branch %s cannot be read: %v", branch, readErr)
		good, found, err := repo.ReadableBefore(branch, bad)
		if err != nil {
			return err
		}
		switch {
		case !found:
			add(Finding{Check: "tips", Problem: problem,
				Fix: fmt.Sprintf("none automatic: no earlier tip is known. If another copy of the repository (a teammate's, the team remote) has commit %s, copy its object file over %s; else point the branch at a commit you choose: git -C %s update-ref %s <commit> %s",
					bad, repo.LooseFile(bad), repo.Path, ref, bad)}, nil)
		case branch == project.GlobalBranch:
			add(Finding{Check: "tips", Problem: problem,
				Fix: fmt.Sprintf("none automatic: moving global back drops what was promoted since. Its newest readable commit is %s (read from %s): git -C %s update-ref %s %s %s",
					good.Commit, good.From, repo.Path, ref, good.Commit, bad)}, nil)
		default:
			stamp := time.Now().UTC().Format("20060102T150405Z")
			keep := staterepo.BrokenTipRef(branch, stamp)
			if _, err := repo.Commit(bad); err != nil {
				keep = repo.BrokenTipFile(branch, stamp) // git refuses a ref to a commit it cannot parse
			}
			damaged := repo.DamagedOf(bad)
			aside := ""
			if len(damaged) > 0 {
				aside = ", and its damaged object file beside it (git then sees the object as missing, so gc works and a fetch can bring it back)"
			}
			add(Finding{Check: "tips", Problem: problem,
				Fix: fmt.Sprintf("move it back to %s, its newest readable commit (read from %s), keeping the broken tip's hash in %s%s; what the worktree holds beyond it is committed again",
					good.Commit.String()[:12], good.From, keep, aside)}, func() error {
				return moveBackFromBrokenTip(ctx, repo, branch, bad, good.Commit, damaged, stamp)
			})
		}
	}
	return nil
}
