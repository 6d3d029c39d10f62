package readmodel

import (
	"context"
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
				st.Notes[r.ID] = append(st.Notes[r.ID], a.Path+" deleted")
			case blob != a.Blob:
				st.Notes[r.ID] = append(st.Notes[r.ID], a.Path+" changed since "+r.Timestamp.UTC().Format("2006-01-02"))
			}
		}
		if anchored > 0 && gone == anchored {
			st.Gone[r.ID] = true
		}
	}
	return st
}

// Mark is the note a reader adds to a record whose code moved on, "" for
// one whose code did not.
func (s Staleness) Mark(id string) string {
	if len(s.Notes[id]) == 0 {
		return ""
	}
	return "(may be stale: " + strings.Join(s.Notes[id], "; ") + ")"
}

// Stale counts the records the check marked.
func (s Staleness) Stale() int { return len(s.Notes) }

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
