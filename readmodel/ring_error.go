package readmodel

import (
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
)

// RingFixHint is what to do about a ring of versions: validate --fix drops
// the one link that keeps the version readers show from being current.
const RingFixHint = "break the ring, keeping its newest version current: planq validate --fix"

// RingError is the answer to acting on id, a version on ring: no version of
// a ring is current or replaced for sure, so a command that needs to know
// refuses it, in validate's words, rather than follow the ring round.
func RingError(id string, ring []string) *planqerr.Error {
	return planqerr.New(planqerr.Corrupt, id, "%s", RingProblem(ring)).WithHint(RingFixHint)
}

// VersionRing is the ring of versions id is on among recs (the first
// record of an ID counts), nil when it is on none.
func VersionRing(recs []*changelog.Record, id string) []string {
	byID := make(map[string]*changelog.Record, len(recs))
	for _, r := range recs {
		if _, ok := byID[r.ID]; !ok {
			byID[r.ID] = r
		}
	}
	return changelog.RingOf(byID, id)
}
