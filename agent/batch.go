package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/plural"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/staterepo"
)

// WriteMany commits recs as new files on the agent branch in one commit
// whose subject is subject: an import, a dedupe or a validate --fix is one
// change to undo, not hundreds.
//
// A record that carries its own timestamp keeps it, and its ID if it has
// one (an import keeps the source's time and maps its IDs); the others are
// stamped now, as Write stamps them, and get the code checkout's evidence.
// Log entries are not linked to a parent here. References (supersedes,
// depends_on) may name records of the batch. Every record is checked before
// the first file is written, and the files are taken back if the commit
// fails, so a refused batch changes nothing.
func (a *Agent) WriteMany(ctx context.Context, recs []*changelog.Record, subject string, opts WriteOptions) ([]Written, error) {
	if len(recs) == 0 {
		return nil, nil
	}
	wt, unlock, err := a.lockedWorktree(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	return a.writeMany(ctx, wt, recs, subject, opts, alongside{})
}

// alongside is what a batch commits besides its records: files of the
// worktree, as they are once write has run. write runs after the records'
// files are on disk, so a crash before the commit leaves records to
// commit (doctor --fix, the next save), never text that is nowhere; undo
// puts them back when the commit fails.
type alongside struct {
	paths []string
	write func() error
	undo  func()
}

// writeMany is WriteMany under the agent's lock, committing also's files
// with the records.
func (a *Agent) writeMany(ctx context.Context, wt *staterepo.Worktree, recs []*changelog.Record, subject string, opts WriteOptions, also alongside) ([]Written, error) {
	var err error
	files := make([][]byte, len(recs))
	paths := make([]string, len(recs))
	inBatch := make(map[string]bool, len(recs))
	for i, rec := range recs {
		a.stamp(ctx, rec)
		if inBatch[rec.ID] {
			return nil, planqerr.New(planqerr.Exists, rec.ID, "appears twice in one batch of records")
		}
		inBatch[rec.ID] = true
		if files[i], err = a.check(rec, opts); err != nil {
			return nil, err
		}
		paths[i] = changelog.RecordPath(rec)
	}
	if err := a.checkBatchReferences(recs, inBatch); err != nil {
		return nil, err
	}
	var created []string
	undo := func() {
		for _, p := range created {
			_ = os.Remove(p) // best effort: the error that stopped the batch is the one to report
		}
	}
	for i, rel := range paths {
		full := filepath.Join(a.Dir, filepath.FromSlash(rel))
		if err := createFile(full, files[i]); err != nil {
			undo()
			return nil, err
		}
		created = append(created, full)
	}
	if also.write != nil {
		if err := also.write(); err != nil {
			undo()
			return nil, err
		}
		if also.undo != nil {
			undoFiles := undo
			undo = func() { undoFiles(); also.undo() }
		}
	}
	message := fmt.Sprintf("%s\n\n%s: %s\n", subject, trailerAgent, a.Name)
	uses, usesCommitted := a.flushUses()
	commit, err := wt.CommitFiles(ctx, slices.Concat(paths, uses, also.paths), message)
	if err != nil {
		undo()
		return nil, planqerr.New(planqerr.Failure, a.Dir, "failed to commit %s: %w", plural.Of(len(recs), "record"), err).
			WithHint("nothing was written; once the cause is gone (another git process holding the index, say), run the command again")
	}
	usesCommitted()
	out := make([]Written, len(recs))
	for i, rec := range recs {
		out[i] = Written{ID: rec.ID, Kind: rec.Kind, Path: paths[i], Commit: commit.String(), Agent: a.Name}
	}
	return out, nil
}

// checkBatchReferences refuses a batch whose records name what exists
// neither in the batch nor on any branch.
func (a *Agent) checkBatchReferences(recs []*changelog.Record, inBatch map[string]bool) error {
	var refs []string
	for _, rec := range recs {
		for _, id := range append([]string{rec.Supersedes, rec.Parent}, rec.DependsOn...) {
			if id != "" && !inBatch[id] {
				refs = append(refs, id)
			}
		}
	}
	if len(refs) == 0 {
		return nil
	}
	set, err := a.store.Records.All()
	if err != nil {
		return err
	}
	known := make(map[string]bool, len(set.Records))
	for _, r := range set.Records {
		known[r.ID] = true
	}
	for _, id := range refs {
		if !known[id] {
			return planqerr.New(planqerr.NotFound, id, "no such record on global, any agent branch or in this batch").
				WithHint("'planq search WORDS' finds a record's id")
		}
	}
	return nil
}
