package agent

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"unicode/utf8"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/failpoint"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// The writer of global: what a lead writes straight to the team's memory,
// without an agent's worktree (a proposal and its files, the states of
// proposals and notes, prune's archive records, a restore, the plan, the
// files sync regenerates). It stamps and checks as an agent's writer does
// (Stamp, Store.check): CommitGlobal is the one way to commit a change on
// global. Sync's merges (team: promote, pull) carry records an agent's
// writer checked.

// GlobalChange is one commit on global: records and files that are no
// records (a proposal's proposed files), each new.
type GlobalChange struct {
	// Writer is who writes: stamped on each record that names no agent
	// of its own (a note's next state keeps its author).
	Writer  string
	Records []*changelog.Record
	Files   map[string][]byte
	// Rewrites are files written in place (a knowledge article, the
	// index): each replaces, makes or deletes the file at its path,
	// provided global still holds what the writer read there. Checked as
	// Files are.
	Rewrites map[string]Rewrite
	// Regenerated makes again, at each attempt, the files planq derives
	// from what global holds (changelog.md from the log entries, PROJECT
	// from the project's name), which replace what is there. They are
	// checked as text (UTF-8, no NUL byte), not held to a file's 1 MiB:
	// changelog.md grows with the project, and refusing it would wedge
	// every promote; what it is made of was checked when it was written.
	Regenerated func() (map[string][]byte, error)
	Message     string
}

// Rewrite is a file's new content on global, nil to delete it, and the
// blob the writer read at its path (zero: none), which global must still
// hold: a rewrite never undoes an edit it did not see.
type Rewrite struct {
	Data []byte
	Was  staterepo.Hash
}

// CommitGlobal writes c on global in one commit, or nothing: each record is
// stamped (Stamp: Writer, now, an ID) unless it was already, then every
// record and file is checked before anything is written, as an agent's
// record is (valid, at most 64 KiB of text, no credential unless the record
// allows it or its predecessor held it already; a file that is no record
// holds at most 1 MiB and no credential at all), and no file replaces
// another but a Rewrite of what global still holds. A record global cannot read back would wedge every reader of the
// project.
func (s *Store) CommitGlobal(ctx context.Context, c GlobalChange) (staterepo.Hash, error) {
	files, err := guardFiles(c)
	if err != nil {
		return staterepo.ZeroHash, err
	}
	at := now()
	for _, r := range c.Records {
		Stamp(r, c.Writer, at)
		data, err := s.CheckForGlobal(r)
		if err != nil {
			return staterepo.ZeroHash, err
		}
		r.Path = changelog.RecordPath(r)
		files[r.Path] = data
	}
	e := &globalEdit{repo: s.Repo, files: files, rewrites: c.Rewrites, regenerated: c.Regenerated}
	return s.commitOnGlobal(ctx, c.Message, e.apply)
}

// guardFiles checks the files c adds or rewrites, as a file that is no
// record is checked, and returns those it adds, by path.
func guardFiles(c GlobalChange) (map[string][]byte, error) {
	files := map[string][]byte{}
	for p, data := range c.Files {
		if err := GuardFile(p, data); err != nil {
			return nil, err
		}
		files[p] = data
	}
	for p, rw := range c.Rewrites {
		if rw.Data == nil {
			continue
		}
		if err := GuardFile(p, rw.Data); err != nil {
			return nil, err
		}
	}
	return files, nil
}

// globalEdit is what CommitGlobal writes on global's tree: new files, and
// rewrites of files global still holds as they were read.
type globalEdit struct {
	repo        *staterepo.Repo
	files       map[string][]byte
	rewrites    map[string]Rewrite
	regenerated func() (map[string][]byte, error)
}

// apply edits tree: no new file replaces one, and no rewrite a file that
// changed since it was read.
func (e *globalEdit) apply(tree staterepo.Hash) (staterepo.Hash, error) {
	edits := map[string]staterepo.Hash{}
	for p, data := range e.files {
		if _, err := e.repo.BlobAt(tree, p); err == nil {
			return staterepo.ZeroHash, planqerr.New(planqerr.Exists, p, "a file at this path exists on global already")
		}
		blob, err := e.repo.WriteBlob(data)
		if err != nil {
			return staterepo.ZeroHash, fmt.Errorf("failed to write %s: %w", p, err)
		}
		edits[p] = blob
	}
	for p, rw := range e.rewrites {
		blob, err := e.rewrite(tree, p, rw)
		if err != nil {
			return staterepo.ZeroHash, err
		}
		edits[p] = blob
	}
	if err := e.regenerate(edits); err != nil {
		return staterepo.ZeroHash, err
	}
	return e.repo.EditTree(tree, edits)
}

// regenerate adds the regenerated files to edits, each checked as text.
func (e *globalEdit) regenerate(edits map[string]staterepo.Hash) error {
	if e.regenerated == nil {
		return nil
	}
	files, err := e.regenerated()
	if err != nil {
		return err
	}
	for p, data := range files {
		if bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data) {
			return planqerr.New(planqerr.Invalid, p, "is not text (a NUL byte, or not UTF-8); nothing was written").
				WithHint("'planq doctor' finds the record it was made from")
		}
		blob, err := e.repo.WriteBlob(data)
		if err != nil {
			return fmt.Errorf("failed to write %s: %w", p, err)
		}
		edits[p] = blob
	}
	return nil
}

// rewrite is the blob of rw's file at p (zero to delete it), refused when
// global's tree no longer holds the blob it was read as.
func (e *globalEdit) rewrite(tree staterepo.Hash, p string, rw Rewrite) (staterepo.Hash, error) {
	was, err := e.repo.BlobAt(tree, p)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return staterepo.ZeroHash, err
	}
	if was != rw.Was {
		return staterepo.ZeroHash, planqerr.New(planqerr.Busy, p, "changed on global since it was read; nothing was written").
			WithHint("run the command again: it reads global anew")
	}
	if rw.Data == nil {
		return staterepo.ZeroHash, nil
	}
	blob, err := e.repo.WriteBlob(rw.Data)
	if err != nil {
		return staterepo.ZeroHash, fmt.Errorf("failed to write %s: %w", p, err)
	}
	return blob, nil
}

// CheckForGlobal is the check CommitGlobal puts a stamped record through
// (see Store.check; a credential passes only if the record allows it or the
// version it supersedes, or the one of its ID, held it already), for the
// versions sync makes in a merge's tree: promote's merged duplicates and
// disputed records. The rest of a merge is records an agent's writer
// checked, copied as they are.
func (s *Store) CheckForGlobal(rec *changelog.Record) ([]byte, error) {
	return s.check(string(rec.Kind)+" "+rec.ID, rec, WriteOptions{AllowSecret: rec.AllowSecret})
}

// SetPlan replaces the team's plan, global's plan.md: what every agent's
// prime shows. It is one commit on global; its text passes Guard, as a
// record's does.
func (s *Store) SetPlan(ctx context.Context, text string, allowSecret bool) (staterepo.Hash, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return staterepo.ZeroHash, planqerr.New(planqerr.Invalid, "plan", "text is empty").
			WithHint("say what the team works on next: planq plan set PLAN ('-' reads it from stdin)")
	}
	data := []byte(text + "\n")
	if err := Guard("plan", data, WriteOptions{AllowSecret: allowSecret}); err != nil {
		return staterepo.ZeroHash, err
	}
	// The plan read now is the one replaced: a plan set meanwhile is not
	// overwritten unseen (CommitGlobal refuses, and the command is run again).
	was, err := s.globalBlob(project.PlanFile)
	if err != nil {
		return staterepo.ZeroHash, err
	}
	return s.CommitGlobal(ctx, GlobalChange{Rewrites: map[string]Rewrite{project.PlanFile: {Data: data, Was: was}}, Message: "plan: " + firstLine(text) + "\n"})
}

// globalBlob is the blob at path on global's tip, zero when there is none.
func (s *Store) globalBlob(path string) (staterepo.Hash, error) {
	tip, err := s.Repo.Tip(project.GlobalBranch)
	if err != nil {
		return staterepo.ZeroHash, err
	}
	tree, err := s.Repo.TreeOf(tip)
	if err != nil {
		return staterepo.ZeroHash, err
	}
	blob, err := s.Repo.BlobAt(tree, path)
	if errors.Is(err, fs.ErrNotExist) {
		return staterepo.ZeroHash, nil
	}
	return blob, err
}

// commitOnGlobal commits on top of global's tip the tree edit returns (from
// the tip's tree), with a compare-and-swap, rebuilding on a lost race: a
// lead's edit never overwrites a promote or pull that landed meanwhile. It
// checks nothing: CommitGlobal, its one caller, checked what edit writes.
func (s *Store) commitOnGlobal(ctx context.Context, message string, edit func(tree staterepo.Hash) (staterepo.Hash, error)) (staterepo.Hash, error) {
	repo := s.Repo
	retry := staterepo.NewRetry(project.GlobalBranch)
	for {
		tip, err := repo.Tip(project.GlobalBranch)
		if err != nil {
			return staterepo.ZeroHash, err
		}
		tree, err := repo.TreeOf(tip)
		if err != nil {
			return staterepo.ZeroHash, err
		}
		newTree, err := edit(tree)
		if err != nil {
			return staterepo.ZeroHash, err
		}
		if newTree == tree {
			return tip, nil
		}
		commit, err := repo.WriteCommit(newTree, []staterepo.Hash{tip}, message)
		if err != nil {
			return staterepo.ZeroHash, err
		}
		failpoint.Hit(failpoint.GlobalWritten)
		err = s.MoveGlobal(ctx, "planq: "+strings.SplitN(message, "\n", 2)[0], tip, commit)
		if err == nil {
			return commit, nil
		}
		if again, err := retry.Again(ctx, err); !again {
			return staterepo.ZeroHash, err
		}
	}
}

// MoveGlobal moves global from one commit to the next, provided it is
// still at from (staterepo.ErrRefMoved otherwise: read again and retry),
// then tells GlobalMoved. Every move of global goes through it: the
// commits of CommitGlobal, promote's and pull's merges, a pull's
// fast-forward.
func (s *Store) MoveGlobal(ctx context.Context, reason string, from, to staterepo.Hash) error {
	if err := s.Repo.SwapGlobal(ctx, reason, from, to); err != nil {
		return err
	}
	if s.GlobalMoved != nil {
		s.GlobalMoved(ctx, from, to)
	}
	return nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}
