package engine

import (
	"cmp"
	"strings"

	"github.com/planq-dev/planq/changelog"
)

// Versions that supersede each other in a ring (A supersedes B, B
// supersedes A: only a hand-made commit writes that) would each be replaced
// by another, and every reader would drop them all. Readers show one
// version of each ring instead, the newest (by time, ties by ID), marked
// (changelog.Record.SupersedesRing, and the search hit's), so that a person
// sees it and 'planq validate' names the ring; promote refuses to land one
// (RingProblem).

// versionEdge is one record that supersedes another: the hashes of its ID
// and of the ID it supersedes, its time, and where its ID is read when two
// versions of a ring are of one time: its row, or the record itself.
type versionEdge struct {
	id, old uint64
	at      int64
	seg     *Segment
	i       int32
	rec     *changelog.Record
}

func rowEdge(s *Segment, i int) versionEdge {
	return versionEdge{id: s.RowID(i), old: s.rowSupersedes(i), at: s.rowAt(i), seg: s, i: int32(i)}
}

func refEdge(r Ref) versionEdge {
	return versionEdge{id: r.id, old: r.supersedes, at: r.at, seg: r.seg, i: r.i}
}

func recordEdge(r *changelog.Record) versionEdge {
	return versionEdge{id: IDHash(r.ID), old: IDHash(r.Supersedes), at: r.Timestamp.UnixNano(), rec: r}
}

// newerEdge orders two versions newest first: by time, ties by ID (the
// greater first), as NewestFirst does.
func newerEdge(a, b versionEdge) int {
	if a.at != b.at {
		return cmp.Compare(b.at, a.at)
	}
	if a.rec != nil && b.rec != nil {
		return strings.Compare(b.rec.ID, a.rec.ID)
	}
	if a.seg != nil && b.seg != nil {
		return CompareIDs(Ref{seg: b.seg, i: b.i}, Ref{seg: a.seg, i: a.i})
	}
	return 0
}

// ringBreaks finds the rings among edges (the first edge of each ID
// counts, as readers keep the first copy of a record) and returns, for each
// ring's newest version, the ID of the version that supersedes it in the
// ring: that one edge is not followed, so the newest version stays current.
// It is nil when there is no ring, which is almost always.
func ringBreaks(edges []versionEdge) map[uint64]uint64 {
	if len(edges) == 0 {
		return nil
	}
	of := make(map[uint64]int, len(edges)) // each ID's edge
	for k, e := range edges {
		if _, ok := of[e.id]; !ok {
			of[e.id] = k
		}
	}
	var breaks map[uint64]uint64
	done := make(map[uint64]bool, len(edges))
	for _, start := range edges {
		if done[start.id] {
			continue
		}
		var path []int // edges, each superseding the next
		onPath := map[uint64]int{}
		for id := start.id; !done[id]; {
			k, ok := of[id]
			if !ok {
				break // a version that supersedes nothing: the chain ends
			}
			if at, seen := onPath[id]; seen {
				ring := path[at:]
				newest := 0
				for j := range ring {
					if newerEdge(edges[ring[j]], edges[ring[newest]]) < 0 {
						newest = j
					}
				}
				if breaks == nil {
					breaks = map[uint64]uint64{}
				}
				breaks[edges[ring[newest]].id] = edges[ring[(newest+len(ring)-1)%len(ring)]].id
				break
			}
			onPath[id] = len(path)
			path = append(path, k)
			id = edges[k].old
		}
		for _, k := range path {
			done[edges[k].id] = true
		}
	}
	return breaks
}

// replacedBy is the IDs the edges supersede, but for the one edge of each
// ring that breaks lets stand (see ringBreaks).
func replacedBy(edges []versionEdge, breaks map[uint64]uint64) map[uint64]bool {
	replaced := make(map[uint64]bool, len(edges))
	for _, e := range edges {
		if by, ok := breaks[e.old]; ok && by == e.id {
			continue
		}
		replaced[e.old] = true
	}
	return replaced
}

// CurrentRecords is changelog.Current with the rings broken: the latest
// version of everything that is live, and of each ring of versions the
// newest, marked.
func CurrentRecords(recs []*changelog.Record) []*changelog.Record {
	var edges []versionEdge
	for _, r := range recs {
		if r.Supersedes != "" {
			edges = append(edges, recordEdge(r))
		}
	}
	breaks := ringBreaks(edges)
	replaced := replacedBy(edges, breaks)
	out := recs[:0:0]
	for _, r := range recs {
		if r.Tombstone || replaced[IDHash(r.ID)] {
			continue
		}
		if _, inRing := breaks[IDHash(r.ID)]; inRing {
			r = markedRing(r)
		}
		out = append(out, r)
	}
	return out
}

// markedRing is a copy of r marked as the version a reader shows of a ring:
// records are shared by every view of a segment, and the mark is this
// view's.
func markedRing(r *changelog.Record) *changelog.Record {
	c := *r
	c.SupersedesRing = true
	return &c
}

// MarkRings marks, in place, the records of recs whose IDs are in rings.
func MarkRings(recs []*changelog.Record, rings map[uint64]uint64) {
	if len(rings) == 0 {
		return
	}
	for i, r := range recs {
		if _, ok := rings[IDHash(r.ID)]; ok {
			recs[i] = markedRing(r)
		}
	}
}

// Successors maps each ID of recs that another record of recs supersedes
// to that record: a newer version, a tombstone or an archiving. Of a ring
// of versions the newest has none (see ringBreaks): it stays current.
func Successors(recs []*changelog.Record) map[string]*changelog.Record {
	var edges []versionEdge
	for _, r := range recs {
		if r.Supersedes != "" {
			edges = append(edges, recordEdge(r))
		}
	}
	breaks := ringBreaks(edges)
	out := map[string]*changelog.Record{}
	for _, r := range recs {
		if by, ok := breaks[IDHash(r.Supersedes)]; r.Supersedes != "" && (!ok || by != IDHash(r.ID)) {
			out[r.Supersedes] = r
		}
	}
	return out
}
