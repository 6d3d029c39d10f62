package readmodel

import (
	"slices"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/readmodel/internal/engine"
	"github.com/planq-dev/planq/staterepo"
)

// Holdings is what a tree of global holds of the kinds promote carries, as
// promote asks it: whether it holds a record (by ID, or merged into another
// as a source), and its current record about a subject. It is answered from
// rows; only the records asked about are decoded.
type Holdings struct {
	rd          *Reader
	held        map[uint64]bool
	bySubject   map[uint64]engine.Ref // the latest current record about each subject
	superseding map[uint64]engine.Ref // the records that supersede another, by ID
	problems    []*changelog.ParseError
}

// Holdings reads what global's commit tip holds; once per reader, since a
// lead's prime asks it of every agent.
func (rd *Reader) Holdings(tip staterepo.Hash) (*Holdings, error) {
	rd.mu.Lock()
	h, ok := rd.holdings[tip]
	rd.mu.Unlock()
	if ok {
		return h, nil
	}
	rs, err := rd.e.Rows([]staterepo.Hash{tip}, promoted...)
	if err != nil {
		return nil, err
	}
	h = &Holdings{rd: rd, held: make(map[uint64]bool, len(rs.Refs())), bySubject: map[uint64]engine.Ref{}, superseding: map[uint64]engine.Ref{}, problems: rs.Problems()}
	for _, r := range rs.Refs() {
		h.held[r.ID()] = true
		if r.Supersedes() != 0 {
			h.superseding[r.ID()] = r
		}
	}
	for _, s := range rs.Segments() {
		for _, id := range s.Sources() {
			h.held[id] = true
		}
	}
	for _, r := range rs.Current() {
		if cur, ok := h.bySubject[r.Subject()]; !ok || r.At() > cur.At() || (r.At() == cur.At() && engine.CompareIDs(r, cur) > 0) {
			h.bySubject[r.Subject()] = r
		}
	}
	rd.mu.Lock()
	if len(rd.holdings) >= keepHoldings {
		clear(rd.holdings)
	}
	rd.holdings[tip] = h
	rd.mu.Unlock()
	return h, nil
}

// keepHoldings bounds the holdings one reader keeps: each is a map of all
// of global's IDs, and a long-running MCP server meets a new global with
// every promote.
const keepHoldings = 4

// Holds reports whether global holds the record with id.
func (h *Holdings) Holds(id string) bool { return h.held[engine.IDHash(id)] }

// About returns global's current record about r's subject (see
// changelog.SubjectKey), nil when it has none.
func (h *Holdings) About(r *changelog.Record) (*changelog.Record, error) {
	key := changelog.SubjectKey(r)
	about, ok := h.bySubject[engine.IDHash(key)]
	if !ok {
		return nil, nil
	}
	recs, err := h.rd.e.Decode([]engine.Ref{about})
	if err != nil {
		return nil, err
	}
	if changelog.SubjectKey(recs[0]) != key {
		return nil, nil // two subjects of one hash: not this one
	}
	return recs[0], nil
}

// Unheld loads the records of the kinds promote carries in the commit tip
// that h does not hold, oldest first, and the files there that are not
// readable records.
func (rd *Reader) Unheld(tip staterepo.Hash, h *Holdings) (Set, error) {
	rs, err := rd.e.Rows([]staterepo.Hash{tip}, promoted...)
	if err != nil {
		return Set{}, err
	}
	var refs []engine.Ref
	for _, r := range rs.ByTime() {
		if !h.held[r.ID()] {
			refs = append(refs, r)
		}
	}
	recs, err := rd.e.Decode(refs)
	if err != nil {
		return Set{}, err
	}
	return Set{Records: recs, Problems: rs.Problems()}, nil
}

// Ring is a ring of versions that supersede each other: their IDs from the
// least, and the path of that one's file, as 'planq validate' names it.
type Ring struct {
	Path string
	IDs  []string
}

// Problem is what 'planq validate' says of the ring.
func (r Ring) Problem() string { return RingProblem(r.IDs) }

// Rings are the rings of versions that the records landing would close
// beside what global holds, each once: a ring readers can only show one
// version of (see rings.go), which promote refuses to land. A ring global
// holds already is validate's to report, not this landing's.
func (h *Holdings) Rings(landing []*changelog.Record) ([]Ring, error) {
	byID := make(map[string]*changelog.Record, len(landing))
	lands := map[string]bool{}
	for _, r := range landing {
		byID[r.ID], lands[r.ID] = r, true
	}
	// Follow each chain of versions through global's records, decoding
	// only those on a chain.
	for _, r := range landing {
		for next := r.Supersedes; next != "" && byID[next] == nil; {
			at, ok := h.superseding[engine.IDHash(next)]
			if !ok {
				break // global has no version of it that supersedes another
			}
			recs, err := h.rd.e.Decode([]engine.Ref{at})
			if err != nil {
				return nil, err
			}
			if recs[0].ID != next {
				break // two IDs of one hash: not this one
			}
			byID[next] = recs[0]
			next = recs[0].Supersedes
		}
	}
	var out []Ring
	for _, ring := range supersedeRings(byID) {
		if slices.ContainsFunc(ring, func(id string) bool { return lands[id] }) {
			first := byID[ring[0]]
			p := first.Path
			if p == "" {
				p = changelog.RecordPath(first)
			}
			out = append(out, Ring{Path: p, IDs: ring})
		}
	}
	return out, nil
}
