package workspace

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// The checks of the user layer are named apart from a project's, so that
// a reader of doctor's output (or of its JSON) tells whose problem it is.
const (
	UserCheckConfig     = "user-config"
	UserCheckExtensions = "user-extensions"
	UserCheckLocks      = "user-locks"
	UserCheckTips       = "user-tips"
	UserCheckRecords    = "user-records"
)

// DoctorUser looks for what crashes and other tools leave behind in the
// user layer under home ($PLANQ_HOME/state-repos/_user.git), which belongs
// to no project: extensions planq cannot read, left-over lock files, a
// global whose tip cannot be read, and record files no reader can use.
// With fix it repairs what it can. made is false, with nothing checked,
// when the layer was never made.
//
// Unlike a project's global, the user layer's is moved back from an
// unreadable tip: no team promotes into it, nothing else can mend it on
// this machine, and until it moves every command that reads the layer
// (learn and search --scope user, search --all-projects, user list, push
// and pull) fails. What only the lost commit held can come back from the
// layer's remote, which the move lets a pull fetch again.
func DoctorUser(ctx context.Context, home string, fix bool) ([]Finding, bool, error) {
	bare := project.StateRepoPath(home, project.UserLayerName)
	if !staterepo.Exists(bare) {
		return nil, false, nil
	}
	d := &doctorRun{fix: fix}
	open, err := d.checkExtensions(ctx, bare, UserCheckExtensions, "the user layer "+bare)
	if err != nil {
		return nil, true, err
	}
	if !open {
		return d.out, true, nil // nothing below can open the repository
	}
	if err := d.checkLocks(bare, UserCheckLocks, " in the user layer"); err != nil {
		return nil, true, err
	}
	repo, err := staterepo.Open(bare)
	if err != nil {
		return d.out, true, err
	}
	readable, err := checkUserTip(ctx, repo, home, d.add)
	if err != nil {
		return d.out, true, err
	}
	if !readable {
		return d.out, true, nil // no record of it reads until global does
	}
	p, err := project.UserLayer(home)
	if err != nil {
		d.add(Finding{Check: UserCheckConfig, Problem: err.Error(),
			Fix: "fix " + filepath.Join(home, project.UserConfigFile) + " (its one key is remote), or move it away"}, nil)
		return d.out, true, nil
	}
	if err := checkUserRecords(ctx, p, d.add); err != nil {
		d.add(Finding{Check: UserCheckRecords, Problem: "could not read the user layer's records: " + err.Error(),
			Fix: "repair what else doctor reports, then run it again"}, nil)
	}
	return d.out, true, nil
}

// checkUserTip checks that the tip of the user layer's global reads, and
// with fix moves it back to its newest readable commit as checkBrokenTips
// moves an agent branch, keeping the broken tip's hash and moving its
// damaged object file aside. It reports whether global reads now.
func checkUserTip(ctx context.Context, repo *staterepo.Repo, home string, add func(Finding, func() error)) (bool, error) {
	bad, err := repo.Tip(project.GlobalBranch)
	if planqerr.Is(err, planqerr.NotFound) {
		return false, nil // the next write makes it (team.InitGlobal)
	}
	if err != nil {
		return false, err
	}
	readErr := repo.Readable(bad)
	if readErr == nil {
		return true, nil
	}
	branch, ref := project.GlobalBranch, project.BranchRef(project.GlobalBranch)
	problem := fmt.Sprintf("the tip of the user layer's global cannot be read: %v", readErr)
	good, found, err := repo.ReadableBefore(branch, bad)
	if err != nil {
		return false, err
	}
	if !found {
		add(Finding{Check: UserCheckTips, Problem: problem,
			Fix: fmt.Sprintf("none automatic: no earlier tip is known. If another copy of the user layer (its remote, another machine's $PLANQ_HOME) has commit %s, copy its object file over %s; else point global at a commit you choose: git -C %s update-ref %s <commit> %s",
				bad, repo.LooseFile(bad), repo.Path, ref, bad)}, nil)
		return false, nil
	}
	stamp := time.Now().UTC().Format("20060102T150405Z")
	keep := staterepo.BrokenTipRef(branch, stamp)
	if _, err := repo.Commit(bad); err != nil {
		keep = repo.BrokenTipFile(branch, stamp) // git refuses a ref to a commit it cannot parse
	}
	damaged := repo.DamagedOf(bad)
	aside := ""
	if len(damaged) > 0 {
		aside = ", and its damaged object file beside it"
	}
	back := fmt.Sprintf("the records only the broken commit added are in no readable commit: 'git -C %s fsck --dangling' lists the tree that holds them", repo.Path)
	if uc, err := project.LoadUserConfig(home); err == nil && uc.Remote != "" {
		back += ", and 'planq user pull' brings back what the layer's remote holds"
	}
	fixed := false
	add(Finding{Check: UserCheckTips, Problem: problem,
		Fix: fmt.Sprintf("move global back to %s, its newest readable commit (read from %s), keeping the broken tip's hash in %s%s; %s",
			good.Commit.String()[:12], good.From, keep, aside, back)}, func() error {
		if err := moveBackFromBrokenTip(ctx, repo, branch, bad, good.Commit, damaged, stamp); err != nil {
			return err
		}
		fixed = true
		return nil
	})
	return fixed, nil
}

// moveBackFromBrokenTip is the repair of checkBrokenTips: keep bad's hash,
// move branch from bad to good (compare-and-swap), then move the damaged
// object files aside so that git sees them as missing: gc works again, and
// a fetch from a copy that has them can bring them back.
func moveBackFromBrokenTip(ctx context.Context, repo *staterepo.Repo, branch string, bad, good staterepo.Hash, damaged []staterepo.Hash, stamp string) error {
	if _, err := repo.KeepBroken(ctx, branch, bad, stamp); err != nil {
		return err
	}
	if err := repo.MoveBranch(ctx, branch, good, bad,
		fmt.Sprintf("planq doctor: move %s back from its unreadable tip %s to %s", branch, bad, good)); err != nil {
		return err
	}
	for _, h := range damaged {
		if _, err := repo.MoveDamagedAside(h, repo.BrokenTipFile(branch, stamp)+"-"+h.String()+".object"); err != nil {
			return err
		}
	}
	return nil
}

// checkUserRecords lists the user layer's record files no reader can use.
// The layer has no checkout to fix them in, so doctor says how to reach
// them and leaves them.
func checkUserRecords(ctx context.Context, p *project.Project, add func(Finding, func() error)) error {
	store, err := agent.OpenStore(ctx, p)
	if err != nil {
		return err
	}
	defer store.Close()
	set, err := store.Records.Branch(project.GlobalBranch)
	if err != nil {
		return err
	}
	for _, line := range set.ProblemLines() {
		add(Finding{Check: UserCheckRecords, Problem: "the user layer's " + line,
			Fix: "the user layer has no checkout: fix or remove the file in a clone of " + p.StateRepo() + " (git clone -b global), commit, and push it back to global"}, nil)
	}
	return nil
}
