package userlayer

import (
	"context"
	"fmt"
	"strings"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/lifecycle"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
)

// The user layer's records are corrected, revalidated and retracted as a
// project's are (package lifecycle), each change one commit on the layer's
// global. lifecycle acts on an agent's branch; these find the version on
// the layer's global instead, and reuse its NextVersion and Unchanged.

// kept are the kinds the layer keeps as records: what Write takes.
var kept = []changelog.Kind{changelog.KindLearning, changelog.KindDecision}

// Has reports whether id is a record of the user layer, in any version:
// what a project's command that did not find id asks, to point at --scope
// user.
func Has(h *readmodel.Handle, id string) (bool, error) {
	if !changelog.ValidID(id) {
		return false, nil
	}
	set, err := h.Records.Branch(project.GlobalBranch, kept...)
	if err != nil {
		return false, err
	}
	for _, r := range set.Records {
		if r.ID == id {
			return true, nil
		}
	}
	return false, nil
}

// Target returns the current version of the layer's learning or decision
// id, to be edited or revalidated; any other version is refused with what
// to act on instead.
func (l *Layer) Target(id string) (*changelog.Record, error) {
	r, replaced, err := l.find(id)
	if err != nil {
		return nil, err
	}
	if next := replaced[id]; next != nil {
		return nil, replacedError(id, replaced)
	}
	return r, nil
}

// Edit writes next, the new version of old (lifecycle.NextVersion of what
// Target returned), in one commit on the layer's global. A version that
// changes nothing is refused with lifecycle.ErrUnchanged, and one that
// holds a credential, even old's, is refused: the layer keeps none.
func (l *Layer) Edit(ctx context.Context, old, next *changelog.Record) (agent.Written, error) {
	if lifecycle.Unchanged(old, next) {
		return agent.Written{}, lifecycle.ErrUnchanged
	}
	next.Supersedes, next.Kind = old.ID, old.Kind
	return l.commit(ctx, next, fmt.Sprintf("edit %s %s: %s\n", old.Kind.Noun(), old.ID, firstLine(next.Title())))
}

// Revalidate records that learning id of the layer still holds: a new
// version with the same content, stamped now, so its shelf life starts
// afresh. No code stands behind the layer, so what it cites is carried as
// it was.
func (l *Layer) Revalidate(ctx context.Context, id string) (agent.Written, error) {
	old, err := l.Target(id)
	if err != nil {
		return agent.Written{}, err
	}
	if old.Kind != changelog.KindLearning {
		return agent.Written{}, planqerr.New(planqerr.Invalid, id, "is a %s; only learnings are revalidated", old.Kind.Noun())
	}
	return l.commit(ctx, lifecycle.NextVersion(old), fmt.Sprintf("revalidate %s %s: %s\n", old.Kind.Noun(), old.ID, firstLine(old.Title())))
}

// Retract writes the tombstone of the layer's record id: a record that
// supersedes it and says why, in one commit on the layer's global. Readers
// stop showing it; history keeps it.
func (l *Layer) Retract(ctx context.Context, id, reason string) (agent.Written, error) {
	target, replaced, err := l.find(id)
	if err != nil {
		return agent.Written{}, err
	}
	if next := replaced[id]; next != nil {
		if next.Tombstone && !next.Archived {
			return agent.Written{}, planqerr.New(planqerr.Exists, id, "is retracted already, by %s", next.ID)
		}
		return agent.Written{}, replacedError(id, replaced)
	}
	rec, err := changelog.NewTombstone(target, reason)
	if err != nil {
		return agent.Written{}, err
	}
	msg := "retract " + target.Kind.Noun() + " " + id
	if reason = strings.TrimSpace(reason); reason != "" {
		msg += ": " + firstLine(reason)
	}
	return l.commit(ctx, rec, msg+"\n")
}

// find returns the layer's learning or decision id, and the layer's
// versions by the ID each supersedes.
func (l *Layer) find(id string) (rec *changelog.Record, replaced map[string]*changelog.Record, err error) {
	if !changelog.ValidID(id) {
		return nil, nil, planqerr.New(planqerr.Invalid, id, "is not a record id").
			WithHint("record ids look like pq-3f9a1c2e4b; 'planq user list' shows the user layer's")
	}
	set, err := l.Records.Branch(project.GlobalBranch, kept...)
	if err != nil {
		return nil, nil, err
	}
	replaced = map[string]*changelog.Record{}
	for _, r := range set.Records {
		if r.ID == id {
			rec = r
		}
		if r.Supersedes != "" {
			replaced[r.Supersedes] = r
		}
	}
	switch {
	case rec == nil:
		return nil, nil, planqerr.New(planqerr.NotFound, id, "no such learning or decision in the user layer").
			WithHint("'planq user list' shows the user layer's records; a project's are acted on without --scope user")
	case rec.Tombstone:
		return nil, nil, planqerr.New(planqerr.Invalid, id, "is a retraction, not a record")
	}
	if ring := readmodel.VersionRing(set.Records, id); ring != nil {
		return nil, nil, readmodel.RingError(id, ring) // each side would name the other as its current version
	}
	return rec, replaced, nil
}

// replacedError says what replaced id (replaced: the versions by the ID
// each supersedes) and what to act on instead.
func replacedError(id string, replaced map[string]*changelog.Record) error {
	next := replaced[id]
	switch {
	case next.Archived:
		return planqerr.New(planqerr.Invalid, id, "is archived (%s): 'planq user prune' found it past its shelf life", next.ID).
			WithHint("if it still holds, write it again in the user layer (--scope user)")
	case next.Tombstone:
		return planqerr.New(planqerr.Invalid, id, "is retracted, by %s", next.ID)
	}
	latest := next
	// Bounded: versions written by hand may supersede each other in a ring.
	for n := 0; n < len(replaced) && replaced[latest.ID] != nil && !replaced[latest.ID].Tombstone; n++ {
		latest = replaced[latest.ID]
	}
	return planqerr.New(planqerr.Invalid, id, "is superseded by %s", next.ID).
		WithHint("act on the current version: %s (with --scope user)", latest.ID)
}
