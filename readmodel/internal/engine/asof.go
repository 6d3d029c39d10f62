package engine

import (
	"context"
	"strings"
	"time"

	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// PinAsOf makes every later read of rd read the memory as it was at spec,
// and returns the moment spec means and the commit of global then:
// a date (2026-11-02, meaning the end of that day in UTC), a time
// (RFC 3339), or a commit of the state repository. Each branch is read at
// its newest first-parent commit at or before that moment; a branch that
// did not exist yet is left out. A commit pins the branch whose line holds
// it to itself, and every other branch to the commit's time. Reading the past
// is reading git: the records of those trees go through the same cache as
// today's.
func (rd *Store) PinAsOf(ctx context.Context, spec string) (time.Time, staterepo.Hash, error) {
	at, commit, err := rd.moment(ctx, spec)
	if err != nil {
		return time.Time{}, staterepo.ZeroHash, err
	}
	branches, err := rd.repo.Branches("")
	if err != nil {
		return time.Time{}, staterepo.ZeroHash, err
	}
	pinned := make(map[string]staterepo.Hash, len(branches))
	for name, tip := range branches {
		if _, isAgent := project.AgentOfBranch(name); !isAgent && name != project.GlobalBranch {
			continue
		}
		then, ok, err := rd.repo.CommitAsOf(ctx, tip, at)
		if err != nil {
			return time.Time{}, staterepo.ZeroHash, err
		}
		if !ok {
			continue
		}
		if commit != staterepo.ZeroHash {
			if then, err = rd.exactly(then, commit); err != nil {
				return time.Time{}, staterepo.ZeroHash, err
			}
		}
		pinned[name] = then
	}
	if _, ok := pinned[project.GlobalBranch]; !ok {
		return time.Time{}, staterepo.ZeroHash, planqerr.New(planqerr.NotFound, "--as-of "+spec, "is before the project's memory began").
			WithHint("'git -C .planq/agent log global' shows global's history")
	}
	rd.mu.Lock()
	rd.pinned = pinned
	rd.mu.Unlock()
	return at.UTC(), pinned[project.GlobalBranch], nil
}

// exactly steps back from then, the newest commit of a branch's
// first-parent line at the time of commit, to commit itself when the line
// holds it: commit times count seconds, so commits made in commit's second
// after it are not what the branch held at commit.
func (rd *Store) exactly(then, commit staterepo.Hash) (staterepo.Hash, error) {
	target, err := rd.repo.Commit(commit)
	if err != nil {
		return staterepo.ZeroHash, err
	}
	for h := then; ; {
		if h == commit {
			return commit, nil
		}
		c, err := rd.repo.Commit(h)
		if err != nil {
			return staterepo.ZeroHash, err
		}
		if len(c.Parents) == 0 || c.Time.Unix() < target.Time.Unix() {
			return then, nil // not on this line: the branch as of commit's time
		}
		h = c.Parents[0]
	}
}

// moment reads an --as-of spec: the time it means, and the commit it names
// if it names one.
func (rd *Store) moment(ctx context.Context, spec string) (time.Time, staterepo.Hash, error) {
	spec = strings.TrimSpace(spec)
	if t, err := time.Parse(time.DateOnly, spec); err == nil {
		return t.Add(24*time.Hour - time.Second), staterepo.ZeroHash, nil
	}
	if t, err := time.Parse(time.RFC3339, spec); err == nil {
		return t, staterepo.ZeroHash, nil
	}
	if !looksLikeCommit(spec) {
		return time.Time{}, staterepo.ZeroHash, planqerr.New(planqerr.Invalid, "--as-of "+spec, "is neither a date, a time nor a commit").
			WithHint("give a date (2026-11-02), a time (2026-11-02T15:04:05Z) or a commit of the state repository")
	}
	c, err := rd.repo.ResolveCommit(ctx, spec)
	if err != nil {
		return time.Time{}, staterepo.ZeroHash, err
	}
	return c.Time, c.Hash, nil
}

func looksLikeCommit(s string) bool {
	if len(s) < 4 || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') && (c < 'A' || c > 'F') {
			return false
		}
	}
	return true
}

// Branches lists the branches a read sees, with their tips: the
// repository's, or those of the moment the reader is pinned to.
func (rd *Store) Branches(prefix string) (map[string]staterepo.Hash, error) {
	rd.mu.Lock()
	pinned := rd.pinned
	rd.mu.Unlock()
	if pinned == nil {
		return rd.repo.Branches(prefix)
	}
	out := map[string]staterepo.Hash{}
	for name, h := range pinned {
		if strings.HasPrefix(name, prefix) {
			out[name] = h
		}
	}
	return out, nil
}

// Tip is the commit a read of branch reads: the branch's tip, or its
// commit at the moment rd is pinned to (see Branches).
func (rd *Store) Tip(branch string) (staterepo.Hash, error) {
	rd.mu.Lock()
	pinned := rd.pinned
	rd.mu.Unlock()
	if pinned == nil {
		return rd.repo.Tip(branch)
	}
	if h, ok := pinned[branch]; ok {
		return h, nil
	}
	return staterepo.ZeroHash, planqerr.New(planqerr.NotFound, "branch "+branch, "did not exist yet at that moment")
}

// Pinned reports whether rd reads a moment in the past (PinAsOf): then what
// a worktree holds on disk is not what the memory said, and readers take
// files from the pinned commits instead.
func (rd *Store) Pinned() bool {
	rd.mu.Lock()
	defer rd.mu.Unlock()
	return rd.pinned != nil
}
