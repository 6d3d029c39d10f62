package agent

import (
	"context"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/readmodel"
)

// Retract writes the tombstone of record id on the agent's branch: readers
// no longer show the record, promote carries the retraction to global, and
// push no longer refuses a credential in it. The record may be any agent's
// or global's, but it must be the current version of what it says.
func (a *Agent) Retract(ctx context.Context, id, reason string, opts WriteOptions) (Written, error) {
	if !changelog.ValidID(id) {
		return Written{}, planqerr.New(planqerr.Invalid, id, "is not a record id").
			WithHint("record ids look like pq-3f9a1c2e4b; 'planq search WORDS' and 'planq log' show them")
	}
	set, err := a.store.Records.All()
	if err != nil {
		return Written{}, err
	}
	var target *changelog.Record
	for _, r := range set.Records {
		if r.ID == id {
			target = r
		}
	}
	if target == nil {
		return Written{}, planqerr.New(planqerr.NotFound, id, "no such record on global or any agent branch").
			WithHint("'planq search WORDS' finds a record's id")
	}
	// A version on a ring has no current version to point at: each
	// side would name the other.
	if ring := readmodel.VersionRing(set.Records, id); ring != nil {
		return Written{}, readmodel.RingError(id, ring)
	}
	for _, r := range set.Records {
		switch {
		case r.Supersedes == id && r.Tombstone:
			return Written{}, planqerr.New(planqerr.Exists, id, "is retracted already, by %s", r.ID)
		case r.Supersedes == id:
			return Written{}, planqerr.New(planqerr.Invalid, id, "is superseded by %s already", r.ID).
				WithHint("retract the current version: planq retract %s", r.ID)
		}
	}
	rec, err := changelog.NewTombstone(target, reason)
	if err != nil {
		return Written{}, err
	}
	return a.Write(ctx, rec, opts)
}
