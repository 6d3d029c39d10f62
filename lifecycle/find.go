package lifecycle

import (
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/readmodel"
)

// versions indexes records by ID and by the ID they supersede, so that a
// command acting on one record can tell whether it is current, replaced,
// retracted or archived.
type versions struct {
	byID     map[string]*changelog.Record
	replaced map[string]*changelog.Record // id -> the record that supersedes it
}

func index(recs []*changelog.Record) versions {
	v := versions{byID: make(map[string]*changelog.Record, len(recs)), replaced: map[string]*changelog.Record{}}
	for _, r := range recs {
		v.byID[r.ID] = r
		if r.Supersedes != "" {
			v.replaced[r.Supersedes] = r
		}
	}
	return v
}

// current returns record id when it is the current version of a live
// record, else an error that says what it is instead and what to do.
func (v versions) current(id string) (*changelog.Record, error) {
	if !changelog.ValidID(id) {
		return nil, planqerr.New(planqerr.Invalid, id, "is not a record id").
			WithHint("record ids look like pq-3f9a1c2e4b; 'planq search WORDS' shows them")
	}
	r, ok := v.byID[id]
	if !ok {
		return nil, planqerr.New(planqerr.NotFound, id, "no such record on global or any agent branch").
			WithHint("'planq search WORDS' finds a record's id")
	}
	if r.Tombstone {
		return nil, planqerr.New(planqerr.Invalid, id, "is a tombstone, not a record").
			WithHint("'planq show %s --history' shows what it took back", id)
	}
	if ring := changelog.RingOf(v.byID, id); ring != nil {
		return nil, readmodel.RingError(id, ring)
	}
	next, replaced := v.replaced[id]
	switch {
	case !replaced:
		return r, nil
	case next.Archived:
		return nil, planqerr.New(planqerr.Invalid, id, "is archived (%s)", next.ID).
			WithHint("bring it back first: planq restore %s", id)
	case next.Tombstone:
		return nil, planqerr.New(planqerr.Invalid, id, "is retracted, by %s", next.ID)
	}
	// id is on no ring, so the chain of its later versions ends (a ring
	// it led into would hold id); seen bounds the walk all the same.
	latest, seen := next, map[string]bool{id: true, next.ID: true}
	for later := v.replaced[latest.ID]; later != nil && !later.Tombstone && !seen[later.ID]; later = v.replaced[latest.ID] {
		seen[later.ID] = true
		latest = later
	}
	return nil, planqerr.New(planqerr.Invalid, id, "is superseded by %s", next.ID).
		WithHint("act on the current version: %s", latest.ID)
}
