package agent

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/planq-dev/planq/internal/atomicfile"

	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
)

// NoteUses records that the agent was shown the records ids (see
// readmodel.Handle.NoteUses): a read stays a read. The agent's next commit
// carries them into its uses file (flushUses), and promote carries that to
// the team.
func (a *Agent) NoteUses(ids []string) error { return a.store.NoteUses(a.Ref, ids) }

// flushUses folds the journal of noted uses into the agent's uses file in
// its worktree, for the commit being made to carry: it returns the file's
// path (none when nothing was noted) and the function to call once that
// commit landed. The journal is first moved aside, so uses noted meanwhile
// wait for the next commit; if this one fails, the next takes them again
// (what a failed commit left goes first, and the journal waits: a move
// over it would lose it). With nothing noted it costs two failed system
// calls. Nothing here fails a write: uses only keep records fresh.
func (a *Agent) flushUses() (paths []string, committed func()) {
	if a.Dir == "" || a.store.Project == nil {
		return nil, func() {}
	}
	flushing, noted := takeJournal(a.store.Project.UsesJournal(a.Name))
	if len(noted) == 0 {
		return nil, func() {}
	}
	rel := project.UsesPath(a.Name)
	file := filepath.Join(a.Dir, filepath.FromSlash(rel))
	old, err := os.ReadFile(file)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, func() {}
	}
	uses := readmodel.ParseUses(old)
	addUses(uses, noted)
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return nil, func() {}
	}
	if err := atomicfile.WriteFile(file, readmodel.FormatUses(uses), 0o644); err != nil {
		return nil, func() {}
	}
	return []string{rel}, func() { _ = os.Remove(flushing) } // left behind, it is counted again: harmless
}

// takeJournal moves the journal aside, unless what a failed commit left
// there waits, and returns where it is and what it notes (nothing when
// nothing was noted or it does not read).
func takeJournal(journal string) (string, []byte) {
	flushing := journal + ".flushing"
	noted, err := os.ReadFile(flushing)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && len(noted) == 0) {
		if os.Rename(journal, flushing) != nil {
			return flushing, nil // nothing noted
		}
		noted, err = os.ReadFile(flushing)
	}
	if err != nil {
		return flushing, nil
	}
	return flushing, noted
}

// addUses counts in uses each use a journal's lines note ("<time>\t<ids>").
func addUses(uses map[string]readmodel.Use, noted []byte) {
	for _, line := range strings.Split(string(noted), "\n") {
		stamp, ids, ok := strings.Cut(line, "\t")
		at, err := time.Parse(time.RFC3339, stamp)
		if !ok || err != nil {
			continue // a torn line: a use lost, nothing more
		}
		for _, id := range strings.Fields(ids) {
			u := uses[id]
			u.Count++
			if at.After(u.Last) {
				u.Last = at.UTC()
			}
			uses[id] = u
		}
	}
}

// NoteUse records that the agent read the file at p, if p is a record (see
// NoteUses).
func (a *Agent) NoteUse(p string) error { return a.store.NoteUse(a.Ref, p) }
