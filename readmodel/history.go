package readmodel

import (
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/readmodel/internal/engine"
)

// Version is one version of a record, and what superseded it: a newer
// version, or a tombstone that retracted it.
type Version struct {
	Record       *changelog.Record `json:"record"`
	SupersededBy string            `json:"superseded_by,omitempty"`
	Retracted    bool              `json:"retracted,omitempty"`
}

// History is record id, then (with older) every version before it, newest
// first, as global and every agent branch hold them. Each names what
// superseded it, if anything did.
func (rd *Reader) History(id string, older bool) ([]Version, error) {
	ix, err := rd.versions()
	if err != nil {
		return nil, err
	}
	first, err := rd.version(ix, id)
	if err != nil {
		return nil, err
	}
	if first == nil {
		return nil, planqerr.New(planqerr.NotFound, id, "no record with this id on global or any agent branch").
			WithHint("'planq search WORDS' finds a record's id")
	}
	out := []Version{{Record: first}}
	// What superseded the record asked for: the newest of what names it.
	if later := ix.supersededBy[engine.IDHash(id)]; len(later) > 0 {
		recs, err := rd.e.Decode(engine.FirstBy(later, 1, engine.NewestFirst))
		if err != nil {
			return nil, err
		}
		out[0].SupersededBy, out[0].Retracted = recs[0].ID, recs[0].Tombstone
	}
	seen := map[string]bool{id: true}
	for cur := first; older && cur.Supersedes != "" && !seen[cur.Supersedes]; {
		prev, err := rd.version(ix, cur.Supersedes)
		if err != nil {
			return nil, err
		}
		if prev == nil {
			break // a version no branch holds
		}
		seen[prev.ID] = true
		out = append(out, Version{Record: prev, SupersededBy: cur.ID, Retracted: cur.Tombstone})
		cur = prev
	}
	return out, nil
}

// versionIndex is every record of global and every agent branch, by ID
// (hashed), and what names each as the version it supersedes.
type versionIndex struct {
	byID         map[uint64]engine.Ref
	supersededBy map[uint64][]engine.Ref
}

// versions indexes the records of every branch's rows.
func (rd *Reader) versions() (*versionIndex, error) {
	tips, err := rd.e.Tips()
	if err != nil {
		return nil, err
	}
	segs, _, err := rd.e.Segments(tips, nil)
	if err != nil {
		return nil, err
	}
	ix := &versionIndex{byID: map[uint64]engine.Ref{}, supersededBy: map[uint64][]engine.Ref{}}
	for _, s := range segs {
		for i := range s.Len() {
			r := engine.RefAt(s, i)
			if _, ok := ix.byID[r.ID()]; !ok {
				ix.byID[r.ID()] = r
			}
			if r.Supersedes() != 0 {
				ix.supersededBy[r.Supersedes()] = append(ix.supersededBy[r.Supersedes()], r)
			}
		}
	}
	return ix, nil
}

// version is record id, decoded; nil when no branch holds it.
func (rd *Reader) version(ix *versionIndex, id string) (*changelog.Record, error) {
	r, ok := ix.byID[engine.IDHash(id)]
	if !ok {
		return nil, nil
	}
	recs, err := rd.e.Decode([]engine.Ref{r})
	if err != nil || recs[0].ID != id {
		return nil, err
	}
	return recs[0], nil
}
