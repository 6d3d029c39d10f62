package readmodel

import (
	"context"
	"fmt"
	"strings"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/staterepo"
)

// Staleness says, per record ID, which of a record's anchored files moved
// on since it was written ("internal/auth/jwt.go changed since 2026-11-02",
// "internal/auth/jwt.go deleted"), and which records have lost every file
// they are anchored to.
type Staleness struct {
	Notes map[string][]string
	Gone  map[string]bool
}

// CheckAnchors compares the anchors of recs with the files of the code
// checkout at codeDir as its HEAD holds them: one git ls-tree for all of
// them, never a file read. Records without anchors cost nothing; without a
// code checkout (or where git cannot say) nothing is marked: a read never
// fails for want of the code.
func CheckAnchors(ctx context.Context, codeDir string, recs []*changelog.Record) Staleness {
	st := Staleness{Notes: map[string][]string{}, Gone: map[string]bool{}}
	var paths []string
	seen := map[string]bool{}
	for _, r := range recs {
		for _, a := range r.Anchors {
			if a.Blob != "" && !seen[a.Path] {
				seen[a.Path] = true
				paths = append(paths, a.Path)
			}
		}
	}
	if len(paths) == 0 || codeDir == "" {
		return st
	}
	now, err := staterepo.OpenCode(codeDir).Blobs(ctx, "HEAD", paths)
	if err != nil {
		return st
	}
	for _, r := range recs {
		anchored, gone := 0, 0
		for _, a := range r.Anchors {
			if a.Blob == "" {
				continue
			}
			anchored++
			switch blob, ok := now[a.Path]; {
			case !ok:
				gone++
				st.Notes[r.ID] = append(st.Notes[r.ID], deletedNote(a.Path))
			case blob != a.Blob:
				st.Notes[r.ID] = append(st.Notes[r.ID], changedNote(a.Path, r.Timestamp.UTC().Format("2006-01-02")))
			}
		}
		if anchored > 0 && gone == anchored {
			st.Gone[r.ID] = true
		}
	}
	return st
}

// The two notes CheckAnchors writes of a file ("jwt.go deleted", "jwt.go
// changed since 2026-11-02"), and splitNote, which reads one back.
const (
	wasDeleted   = "deleted"
	changedSince = "changed since "
)

func deletedNote(path string) string       { return path + " " + wasDeleted }
func changedNote(path, date string) string { return path + " " + changedSince + date }

// splitNote is the file a note names and what became of it ("deleted",
// "changed since 2026-11-02"); a note of another form is all path, with no
// change.
func splitNote(note string) (path, change string) {
	if p, ok := strings.CutSuffix(note, " "+wasDeleted); ok {
		return p, wasDeleted
	}
	if i := strings.LastIndex(note, " "+changedSince); i >= 0 {
		return note[:i], note[i+1:]
	}
	return note, ""
}

// Mark is the note a reader adds to a record whose code moved on, "" for
// one whose code did not: one short clause however many files moved on,
// the first of them and how many more ("(may be stale: cli/root.go and 19
// more files changed since 2026-11-02)"). A listing shows many records, and
// a list of twenty files on each drowns what they say; show and get, which
// read one record, print the list (StaleList).
func (s Staleness) Mark(id string) string { return StaleMark(s.Notes[id]) }

// StaleMark is Mark of a record whose code moved on as notes say.
func StaleMark(notes []string) string {
	switch len(notes) {
	case 0:
		return ""
	case 1:
		return StaleList(notes)
	}
	first, _ := splitNote(notes[0])
	var since string
	var changed, deleted bool
	for _, n := range notes {
		switch _, c := splitNote(n); {
		case c == wasDeleted:
			deleted = true
		case strings.HasPrefix(c, changedSince):
			changed = true
			if since == "" {
				since = strings.TrimPrefix(c, changedSince)
			}
		default: // a note of another form: say no more than how many
			return fmt.Sprintf("(may be stale: %s, and %s)", notes[0], moreFiles(len(notes)-1))
		}
	}
	change := wasDeleted
	switch {
	case changed && deleted:
		change = "changed or deleted since " + since
	case changed:
		change = changedSince + since
	}
	return fmt.Sprintf("(may be stale: %s and %s %s)", first, moreFiles(len(notes)-1), change)
}

func moreFiles(n int) string {
	if n == 1 {
		return "1 more file"
	}
	return fmt.Sprintf("%d more files", n)
}

// StaleList is every note of a record whose code moved on, for the readers
// of one record (show, get): "(may be stale: a.go changed since 2026-11-02;
// b.go deleted)", "" for none.
func StaleList(notes []string) string {
	if len(notes) == 0 {
		return ""
	}
	return "(may be stale: " + strings.Join(notes, "; ") + ")"
}

// MarkExcerpt notes on ex what moved on of the code files its record cites,
// when ex is a record's and the record has anchors.
func (rd *Reader) MarkExcerpt(ctx context.Context, codeDir string, ex *Excerpt) {
	id := changelog.IDOfPath(ex.Path)
	if id == "" {
		return
	}
	versions, err := rd.History(id, false)
	if err != nil || len(versions) == 0 || len(versions[0].Record.Anchors) == 0 {
		return
	}
	ex.Stale = CheckAnchors(ctx, codeDir, []*changelog.Record{versions[0].Record}).Notes[id]
}
