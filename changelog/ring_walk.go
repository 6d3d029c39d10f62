package changelog

import (
	"slices"
	"sort"
)

// Versions that supersede each other in a ring (A supersedes B, B
// supersedes A) are written only by hand or by an import of data that says
// so; a walk that follows supersedes until the chain ends never ends on
// one. Every walk that must meet one is bounded by the walks here: each ID
// is visited once, so a chain of any length ends too.

// SupersedesRings finds each ring of versions among recs (the first record
// of an ID counts, as readers keep the first copy), once, as its IDs from
// the least, in the order of those least IDs. A ring of one is a record
// that supersedes itself.
func SupersedesRings(recs []*Record) [][]string {
	links := make(map[string]string, len(recs))
	for _, r := range recs {
		if _, ok := links[r.ID]; !ok {
			links[r.ID] = r.Supersedes
		}
	}
	return RingsOfLinks(links)
}

// RingsOfLinks is SupersedesRings of links, each ID to the ID it
// supersedes ("" for none).
func RingsOfLinks(links map[string]string) [][]string {
	ids := make([]string, 0, len(links))
	for id := range links {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var rings [][]string
	done := make(map[string]bool, len(links))
	for _, start := range ids {
		var path []string
		onPath := map[string]int{}
		for id := start; id != "" && !done[id]; {
			if at, ok := onPath[id]; ok {
				ring := slices.Clone(path[at:])
				least := slices.Index(ring, slices.Min(ring))
				rings = append(rings, append(ring[least:], ring[:least]...))
				break
			}
			onPath[id] = len(path)
			path = append(path, id)
			next, ok := links[id]
			if !ok {
				break // a version no record of the set is: the chain ends
			}
			id = next
		}
		for _, id := range path {
			done[id] = true
		}
	}
	return rings
}

// RingOf is the ring of versions id is on, from the least ID, following
// supersedes from id through byID; nil when the chain from id ends, or
// leads into a ring id is not on.
func RingOf(byID map[string]*Record, id string) []string {
	seen := map[string]bool{}
	var path []string
	for at := id; at != "" && !seen[at]; {
		r := byID[at]
		if r == nil {
			return nil
		}
		seen[at] = true
		path = append(path, at)
		at = r.Supersedes
		if at == id {
			least := slices.Index(path, slices.Min(path))
			return append(path[least:], path[:least]...)
		}
	}
	return nil
}

// RingCut is how a ring of versions (its IDs, all in byID) is broken so
// that what readers show of it stays current: newest is its newest version
// (by time, ties by the greater ID, as readers pick the one they show), cut
// the version whose supersedes names newest, the one link to drop. Of a
// record that supersedes itself both are the record.
func RingCut(ring []string, byID map[string]*Record) (newest, cut *Record) {
	for _, id := range ring {
		r := byID[id]
		if newest == nil || r.Timestamp.After(newest.Timestamp) || (r.Timestamp.Equal(newest.Timestamp) && r.ID > newest.ID) {
			newest = r
		}
	}
	for _, id := range ring {
		if r := byID[id]; r.Supersedes == newest.ID {
			return newest, r
		}
	}
	return newest, newest
}
