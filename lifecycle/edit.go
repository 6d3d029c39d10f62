package lifecycle

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"time"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
)

// editableKinds are the kinds edit writes new versions of: what the team
// keeps. Log entries, handoffs and checkpoints say what happened; they are
// not corrected, only retracted.
var editableKinds = []changelog.Kind{changelog.KindLearning, changelog.KindDecision}

// Target returns the current learning or decision id, to be edited: an
// edit of anything else, or of a version that is no longer current, is
// refused with what to do instead.
func Target(a *agent.Agent, id string) (*changelog.Record, error) {
	set, err := a.Store().Records.All(editableKinds...)
	if err != nil {
		return nil, err
	}
	v := index(set.Records)
	if _, ok := v.byID[id]; !ok && changelog.ValidID(id) {
		if other, err := a.Store().Records.PathOf(id); err == nil && other != "" {
			return nil, planqerr.New(planqerr.Invalid, id, "is a %s; only learnings and decisions are edited", kindOfPath(other)).
				WithHint("write a new record instead")
		}
	}
	return v.current(id)
}

func kindOfPath(p string) string {
	for i := range p {
		if p[i] == '/' {
			if k, ok := changelog.KindOfDir(p[:i]); ok {
				return k.Noun()
			}
			break
		}
	}
	return "record"
}

// NextVersion is a copy of old to edit into its new version: the same
// content, superseding old, with the bookkeeping left for the write to
// stamp.
func NextVersion(old *changelog.Record) *changelog.Record {
	next := *old
	next.ID, next.Agent, next.Path, next.Timestamp = "", "", "", time.Time{}
	next.Supersedes = old.ID
	next.DependsOn = append([]string(nil), old.DependsOn...)
	next.Alternatives = append([]string(nil), old.Alternatives...)
	next.Sources = append([]changelog.Source(nil), old.Sources...)
	next.Tags = append([]string(nil), old.Tags...)
	next.Anchors = append([]changelog.Anchor(nil), old.Anchors...)
	if old.Evidence != nil {
		ev := *old.Evidence
		ev.Files = append([]string(nil), ev.Files...)
		next.Evidence = &ev
	}
	return &next
}

// Unchanged reports whether next says exactly what old says: an edit that
// changes nothing writes nothing.
func Unchanged(old, next *changelog.Record) bool {
	a, b := NextVersion(old), *next
	b.ID, b.Agent, b.Path, b.Timestamp = "", "", "", time.Time{}
	return reflect.DeepEqual(a, &b)
}

// Edit writes next, the new version of old (see NextVersion), on the
// agent's branch: one commit. It refuses a version that changes nothing.
func Edit(ctx context.Context, a *agent.Agent, old, next *changelog.Record, opts agent.WriteOptions) (agent.Written, error) {
	if Unchanged(old, next) {
		return agent.Written{}, ErrUnchanged
	}
	next.Supersedes = old.ID
	next.Kind = old.Kind
	return a.Write(ctx, next, opts)
}

// ErrUnchanged is Edit's answer to an edit that changes nothing.
var ErrUnchanged = planqerr.New(planqerr.Invalid, "edit", "changes nothing")

// ParseEdited reads data, a record file as a person edited it from old's,
// into next: strictly, as a stored record (errors name path and line), with
// the fields planq stamps (id, kind, agent, timestamp, supersedes) left as
// they were: changing one is an error.
func ParseEdited(path string, old, next *changelog.Record, data []byte) (*changelog.Record, error) {
	parsed, err := changelog.Parse("", data)
	if err != nil {
		var pe *changelog.ParseError
		if errors.As(err, &pe) {
			pe.Path = path
			return nil, pe
		}
		return nil, err
	}
	for _, f := range []struct {
		name      string
		was, have string
	}{
		{"id", old.ID, parsed.ID}, {"kind", string(old.Kind), string(parsed.Kind)}, {"agent", old.Agent, parsed.Agent},
		{"supersedes", old.Supersedes, parsed.Supersedes},
	} {
		if f.was != f.have {
			return nil, fmt.Errorf("%s: %s is planq's to set: it was %q, the edit says %q", path, f.name, f.was, f.have)
		}
	}
	if !parsed.Timestamp.Equal(old.Timestamp) {
		return nil, fmt.Errorf("%s: timestamp is planq's to set: the new version is stamped when it is written", path)
	}
	// Parse reads a record that says nothing; a new version must say it.
	if err := changelog.CheckBody(parsed); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	parsed.ID, parsed.Agent, parsed.Path, parsed.Timestamp = "", "", "", time.Time{}
	parsed.Supersedes = next.Supersedes
	return parsed, nil
}
