package staterepo

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/planq-dev/planq/project"
)

// ReflogEntry is one line of a reflog: a ref moved from Old to New.
type ReflogEntry struct {
	Old, New Hash
	Time     time.Time
	Message  string
}

// readReflog reads the reflog file at path, oldest entry first; a missing
// file is an empty reflog. Lines it cannot read are skipped: a reflog is
// evidence, and one bad line must not hide the others.
func readReflog(path string) ([]ReflogEntry, error) {
	f, err := os.Open(path)
	if isNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("failed to read reflog %s: %w", path, err)
	}
	defer f.Close()
	var out []ReflogEntry
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		line := sc.Text()
		fields := strings.Fields(line)
		if len(fields) < 2 {
			continue
		}
		oldH, ok1 := parseHash(fields[0])
		newH, ok2 := parseHash(fields[1])
		if !ok1 || !ok2 {
			continue
		}
		when, _ := reflogTime(line)
		_, msg, _ := strings.Cut(line, "\t")
		out = append(out, ReflogEntry{Old: oldH, New: newH, Time: when, Message: msg})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("failed to read reflog %s: %w", path, err)
	}
	return out, nil
}

// BranchReflog is the reflog of branch, oldest first. git deletes it with
// the branch ('git branch -D', 'update-ref -d'); a ref file removed by hand
// leaves it.
func (r *Repo) BranchReflog(branch string) ([]ReflogEntry, error) {
	return readReflog(filepath.Join(r.Path, "logs", filepath.FromSlash(project.BranchRef(branch))))
}

// worktreeHeadReflog is the reflog of the HEAD of the linked worktree id,
// oldest first. It outlives the branch HEAD points at: each commit made
// through HEAD (every planq record) is logged there too.
func (r *Repo) worktreeHeadReflog(id string) ([]ReflogEntry, error) {
	return readReflog(filepath.Join(r.Path, "worktrees", id, "logs", "HEAD"))
}

// TipCandidate is a commit a reflog shows was a branch's tip, and where
// that was read.
type TipCandidate struct {
	Commit Hash
	Time   time.Time
	// From names the reflog, for messages.
	From string
}

// TipHistory lists the commits the reflogs prove were tips of branch,
// newest first, each once: the branch's own reflog and, for a branch
// checked out in a linked worktree, that worktree's HEAD reflog from the
// last time HEAD came to the branch. Entries that moved the branch to
// nothing (a deletion) are left out.
func (r *Repo) TipHistory(branch string) ([]TipCandidate, error) {
	var all []TipCandidate
	own, err := r.BranchReflog(branch)
	if err != nil {
		return nil, err
	}
	for _, e := range own {
		all = append(all, TipCandidate{Commit: e.New, Time: e.Time, From: "the reflog of " + branch})
	}
	wts, err := r.Worktrees()
	if err != nil {
		return nil, err
	}
	for _, wt := range wts {
		if wt.Branch != branch {
			continue
		}
		head, err := r.worktreeHeadReflog(wt.ID)
		if err != nil {
			return nil, err
		}
		for _, e := range head[headCameTo(head, branch):] {
			all = append(all, TipCandidate{Commit: e.New, Time: e.Time, From: "the HEAD reflog of the worktree at " + wt.Path})
		}
	}
	return newestFirst(all), nil
}

// headCameTo is where, in a worktree's HEAD reflog, HEAD last came to
// branch: only entries since then were its tips.
func headCameTo(head []ReflogEntry, branch string) int {
	start := 0
	for i, e := range head {
		to, ok := strings.CutPrefix(e.Message, "checkout: moving from ")
		if !ok {
			continue
		}
		if _, target, ok := strings.Cut(to, " to "); ok && target != branch {
			start = i + 1
		} else if ok {
			start = i
		}
	}
	return start
}

// newestFirst is all, newest first, each commit once, without deletions;
// within one second, later lines are newer.
func newestFirst(all []TipCandidate) []TipCandidate {
	out := make([]TipCandidate, 0, len(all))
	seen := map[Hash]bool{}
	for len(all) > 0 {
		best := len(all) - 1
		for i := len(all) - 1; i >= 0; i-- {
			if all[i].Time.After(all[best].Time) {
				best = i
			}
		}
		c := all[best]
		all = append(all[:best], all[best+1:]...)
		if c.Commit.IsZero() || seen[c.Commit] {
			continue
		}
		seen[c.Commit] = true
		out = append(out, c)
	}
	return out
}

// Readable reports whether commit h and its root tree can be read: what
// every reader of a branch needs first. The error says what is broken.
func (r *Repo) Readable(h Hash) error {
	c, err := r.readCommit(h)
	if err != nil {
		return err
	}
	_, err = r.readTree(c.Tree)
	return err
}

// NewestReadableTip is the newest commit the reflogs prove was a tip of
// branch whose commit and root tree read, other than skip (a tip known to be
// broken); false when there is none.
func (r *Repo) NewestReadableTip(branch string, skip Hash) (TipCandidate, bool, error) {
	cands, err := r.TipHistory(branch)
	if err != nil {
		return TipCandidate{}, false, err
	}
	for _, c := range cands {
		if c.Commit != skip && r.Readable(c.Commit) == nil {
			return c, true, nil
		}
	}
	return TipCandidate{}, false, nil
}

// RecreateBranch creates branch at commit, only if it does not exist: a
// branch someone else recreated meanwhile is theirs.
func (r *Repo) RecreateBranch(ctx context.Context, branch string, commit Hash, reason string) error {
	return r.CreateRef(ctx, project.BranchRef(branch), commit, reason)
}

// MoveBranch moves branch from old to commit, failing with ErrRefMoved
// when it is no longer at old.
func (r *Repo) MoveBranch(ctx context.Context, branch string, commit, old Hash, reason string) error {
	return updateRef(ctx, r.git, project.BranchRef(branch), commit, old, reason)
}
