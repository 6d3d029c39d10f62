package readmodel

import (
	"slices"
	"sort"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/readmodel/internal/engine"
)

// LearningFilter picks learnings for Learnings. An empty list keeps every
// value.
type LearningFilter struct {
	Domains         []string
	Types           []changelog.Type
	Classifications []changelog.Classification
	// Since drops learnings older than it.
	Since time.Time
	// AllVersions keeps superseded versions too; retracted ones never.
	AllVersions bool
}

// Learnings is the expertise the team holds: the current learnings of
// global and every agent branch (each once) that f keeps, ranked for
// reading (see Rank), with the domains there are, and the files that did
// not read.
func (rd *Reader) Learnings(f LearningFilter) (recs []*changelog.Record, domains []string, problems []string, err error) {
	set, err := rd.All(changelog.KindLearning)
	if err != nil {
		return nil, nil, nil, err
	}
	live := engine.CurrentRecords(set.Records)
	if f.AllVersions {
		retracted := map[string]bool{}
		for _, r := range set.Records {
			if r.Tombstone {
				retracted[r.Supersedes] = true
			}
		}
		live = slices.DeleteFunc(slices.Clone(set.Records), func(r *changelog.Record) bool { return r.Tombstone || retracted[r.ID] })
	}
	seen := map[string]bool{}
	for _, r := range live {
		if !seen[r.Domain] {
			seen[r.Domain] = true
			domains = append(domains, r.Domain)
		}
		if (len(f.Domains) == 0 || slices.Contains(f.Domains, r.Domain)) &&
			(len(f.Types) == 0 || slices.Contains(f.Types, r.Type)) &&
			(len(f.Classifications) == 0 || slices.Contains(f.Classifications, r.Classification)) &&
			!r.Timestamp.Before(f.Since) {
			recs = append(recs, r)
		}
	}
	sort.Strings(domains)
	Rank(recs)
	return recs, domains, set.ProblemLines(), nil
}

// RawNotes counts the notes of global and every agent branch (each once)
// that wait for curation.
func (rd *Reader) RawNotes() (int, error) {
	set, err := rd.All(changelog.KindNote)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, r := range set.Current() {
		if r.Status == changelog.StatusRaw {
			n++
		}
	}
	return n, nil
}
