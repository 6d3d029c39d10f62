package session

import (
	"context"
	"strings"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/lifecycle"
	"github.com/planq-dev/planq/planqerr"
)

// EditInput is a new version of a learning or decision, the project's or
// the user layer's (Scope as LearnInput's): the fields it changes (nil
// leaves one as it was; a list given replaces the old one), or Rewrite.
type EditInput struct {
	Author
	Scope Scope
	ID    string

	Text, Type, Domain, Classification, Resolution, Subject, Decision, Rationale *string
	Tags, Alternatives                                                           []string

	// Rewrite, when set, makes the new version in place of the fields:
	// given the current version and a copy of it that supersedes it, it
	// returns the new version (a person's edit of its file, read with
	// ParseEdited).
	Rewrite func(old, next *changelog.Record) (*changelog.Record, error)
}

// ParseEdited reads data, a record file as a person edited it from old's,
// into next, as strictly as a stored record; the fields planq stamps stay
// planq's.
func ParseEdited(path string, old, next *changelog.Record, data []byte) (*changelog.Record, error) {
	return lifecycle.ParseEdited(path, old, next, data)
}

// Edit writes the new version of a learning or decision, superseding it:
// one commit. A version that is not current is refused naming the current
// one, and one that changes nothing with ErrUnchanged.
func (s *Project) Edit(ctx context.Context, in EditInput) (Written, error) {
	user, err := userScope(in.Scope)
	if err != nil {
		return Written{}, err
	}
	if user {
		l, err := s.userRecordLayer(ctx, in.Author, in.ID)
		if err != nil {
			return Written{}, err
		}
		defer func() { _ = l.Close() }() // the cache is only a shortcut
		old, err := l.Target(in.ID)
		if err != nil {
			return Written{}, err
		}
		return in.edit(old, func(next *changelog.Record) (Written, error) { return l.Edit(ctx, old, next) })
	}
	a, err := s.agent(ctx, in.Agent)
	if err != nil {
		return Written{}, err
	}
	old, err := lifecycle.Target(a, in.ID)
	if err != nil {
		return Written{}, s.pointAtUserLayer(ctx, err, "edit", in.ID)
	}
	return in.edit(old, func(next *changelog.Record) (Written, error) {
		return lifecycle.Edit(ctx, a, old, next, in.options())
	})
}

// edit makes old's next version as in says and writes it.
func (in EditInput) edit(old *changelog.Record, write func(*changelog.Record) (Written, error)) (Written, error) {
	next := lifecycle.NextVersion(old)
	var err error
	if in.Rewrite != nil {
		next, err = in.Rewrite(old, next)
	} else {
		err = in.apply(next)
	}
	if err != nil {
		return Written{}, err
	}
	return write(next)
}

// apply sets the fields in changes on next, and checks what it makes.
func (in EditInput) apply(next *changelog.Record) error {
	if in.Text != nil && strings.TrimSpace(*in.Text) == "" {
		// As learn and decide refuse it: a version that says nothing.
		retract := "planq retract " + next.Supersedes
		if in.Scope == ScopeUser {
			retract += " --scope user"
		}
		return planqerr.New(planqerr.Invalid, next.Kind.Noun(), "text is empty").
			WithHint("give the new text; to take %s back instead, '%s'", next.Supersedes, retract)
	}
	for _, f := range []struct {
		to   *string
		from *string
	}{{&next.Body, in.Text}, {&next.Domain, in.Domain}, {&next.Resolution, in.Resolution},
		{&next.Subject, in.Subject}, {&next.Decision, in.Decision}, {&next.Rationale, in.Rationale}} {
		if f.from != nil {
			*f.to = *f.from
		}
	}
	if in.Type != nil {
		next.Type = changelog.Type(*in.Type)
	}
	if in.Classification != nil {
		next.Classification = changelog.Classification(*in.Classification)
	}
	// An empty list is none, as the old version's was: a list emptied
	// twice changes nothing.
	if in.Tags != nil {
		next.Tags = append([]string(nil), in.Tags...)
	}
	if in.Alternatives != nil {
		next.Alternatives = append([]string(nil), in.Alternatives...)
	}
	// Checked as the write will stamp it, before anything is written.
	stamped := *next
	stamped.ID, stamped.Agent, stamped.Timestamp = changelog.IDPrefix+"0000000000", "edit", time.Now().UTC()
	if err := changelog.Validate(&stamped); err != nil {
		return planqerr.New(planqerr.Invalid, "edit", "%w", err)
	}
	return nil
}
