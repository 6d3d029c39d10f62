package readmodel

import (
	"strings"

	"github.com/planq-dev/planq/changelog"
)

// Versions that supersede each other in a ring (A supersedes B, B
// supersedes A: only a hand-made commit writes that) would each be replaced
// by another, and every reader would drop them all. Readers show one
// version of each ring instead, the newest (by time, ties by ID), marked
// (changelog.Record.SupersedesRing, and the search hit's), so that a person
// sees it and 'planq validate' names the ring; promote refuses to land one
// (RingProblem). The engine finds them (internal/engine/rings.go).

// RingMark is how a reader marks the one version it shows of a ring:
// changelog.RingMark.
const RingMark = changelog.RingMark

// RingProblem is what 'planq validate' says of a ring of versions, given
// as their IDs from the least: the same words wherever a ring is met. A
// ring of one is a record that names itself in supersedes (an import of
// mulch data by a planq before it dropped such links wrote them): readers
// show it, as the newest of its ring.
func RingProblem(ring []string) string {
	if len(ring) == 1 {
		return "the record supersedes itself: " + ring[0] + " -> " + ring[0]
	}
	return "versions supersede each other in a ring: " + strings.Join(append(ring[:len(ring):len(ring)], ring[0]), " -> ")
}
