package session

import (
	"context"
	"errors"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/userlayer"
	"github.com/planq-dev/planq/lifecycle"
	"github.com/planq-dev/planq/planqerr"
)

// What an agent's writes hand back.
type (
	// Written says what a write committed: the record's ID and kind, its
	// path, the commit and the agent.
	Written = agent.Written
	// Noted is what a note did: the notes committed (the inbox's lines,
	// then the note given) and the inbox's lines no note may hold.
	Noted = agent.Noted
)

// ErrUnchanged is Edit's answer to an edit that changes nothing: nothing
// is written.
var ErrUnchanged = lifecycle.ErrUnchanged

// Author is who a write acts for, and what it lets through: every write's
// input holds one.
type Author struct {
	// Agent is the agent written as; "" is the one mounted where the
	// service was opened (or $PLANQ_AGENT_DIR).
	Agent string
	// AllowSecret stores text even though it looks like a credential.
	AllowSecret bool
}

func (au Author) options() agent.WriteOptions { return agent.WriteOptions{AllowSecret: au.AllowSecret} }

// Recorded is what a learn or a decide wrote; Made is the user layer's
// path when this write made it.
type Recorded struct {
	Written
	Made string `json:"-"`
}

// LearnInput is a learning to record, in the project (Scope "" or
// ScopeProject: the agent's branch) or in the user layer (ScopeUser).
type LearnInput struct {
	changelog.LearningInput
	Author
	Scope Scope
	// Force records it though its domain is at the hard limit of current
	// learnings.
	Force bool
}

// Learn records a learning. The user layer has no code and no agent:
// what names either is refused there before anything is made.
func (s *Project) Learn(ctx context.Context, in LearnInput) (Recorded, error) {
	user, err := userScope(in.Scope)
	if err != nil {
		return Recorded{}, err
	}
	if user {
		if err := checkUserLearning(in); err != nil {
			return Recorded{}, err
		}
	}
	if in.Type == "" {
		return Recorded{}, planqerr.New(planqerr.Invalid, "learn", "--type is required (%s)", changelog.Join(changelog.KindLearning.Spec().Types, ", "))
	}
	rec, err := changelog.NewLearning(in.LearningInput)
	if err != nil {
		return Recorded{}, err
	}
	if user {
		return s.recordInUserLayer(ctx, in.Author, rec)
	}
	w, err := s.writeAs(ctx, in.Author, func(a *agent.Agent, o agent.WriteOptions) (Written, error) {
		return a.Learn(ctx, rec, agent.LearnOptions{WriteOptions: o, Force: in.Force})
	})
	return Recorded{Written: w}, err
}

// checkUserLearning refuses what a learning of the user layer cannot
// hold: a credential allowed, the code of a project.
func checkUserLearning(in LearnInput) error {
	if err := userlayer.CheckAllowSecret(in.AllowSecret); err != nil {
		return err
	}
	for _, f := range []struct {
		set  bool
		flag string
	}{{len(in.Files) > 0, "--file"}, {len(in.Evidence.Files) > 0, "--evidence-file"}, {in.Evidence.Commit != "", "--evidence-commit"}} {
		if f.set {
			return planqerr.New(planqerr.Invalid, "learn", "%s names the code of a project; the user layer has none: leave it out, or record in the project (--scope project)", f.flag)
		}
	}
	return nil
}

// DecideInput is a decision to record, in the project or in the user
// layer (as LearnInput's Scope).
type DecideInput struct {
	changelog.DecisionInput
	Author
	Scope Scope
}

// Decide records a decision.
func (s *Project) Decide(ctx context.Context, in DecideInput) (Recorded, error) {
	user, err := userScope(in.Scope)
	if err != nil {
		return Recorded{}, err
	}
	rec, err := changelog.NewDecision(in.DecisionInput)
	if err != nil {
		return Recorded{}, err
	}
	if user {
		return s.recordInUserLayer(ctx, in.Author, rec)
	}
	w, err := s.write(ctx, in.Author, rec, nil)
	return Recorded{Written: w}, err
}

// userScope reads a write's scope: true for the user layer.
func userScope(scope Scope) (bool, error) {
	if scope == "" || scope == ScopeProject {
		return false, nil
	}
	if scope == ScopeUser {
		return true, nil
	}
	return false, planqerr.New(planqerr.Invalid, "", "--scope must be %s or %s, not %q", ScopeProject, ScopeUser, scope)
}

// recordInUserLayer records rec in the user layer, made on first use.
func (s *Project) recordInUserLayer(ctx context.Context, au Author, rec *changelog.Record) (Recorded, error) {
	if au.Agent != "" {
		return Recorded{}, planqerr.New(planqerr.Invalid, "", "--agent names an agent of a project; the user layer has none: leave --agent out, or write to the project (--scope project)")
	}
	l, made, err := s.layer(ctx, true)
	if err != nil {
		return Recorded{}, err
	}
	defer func() { _ = l.Close() }() // the cache is only a shortcut
	w, err := l.Write(ctx, rec, au.options())
	return Recorded{Written: w, Made: made}, err
}

// LogInput is a changelog entry to record.
type LogInput struct {
	changelog.LogInput
	Author
}

// AddLog records a changelog entry; its parent is the agent's previous one.
func (s *Project) AddLog(ctx context.Context, in LogInput) (Written, error) {
	rec, err := changelog.NewLog(in.LogInput)
	return s.write(ctx, in.Author, rec, err)
}

// HandoffInput is a handoff to leave.
type HandoffInput struct {
	changelog.HandoffInput
	Author
}

// Handoff leaves a handoff for the agent's next session or another agent.
func (s *Project) Handoff(ctx context.Context, in HandoffInput) (Written, error) {
	rec, err := changelog.NewHandoff(in.HandoffInput)
	return s.write(ctx, in.Author, rec, err)
}

// AckHandoff marks handoff id ("" is the one pending for the agent) as
// picked up.
func (s *Project) AckHandoff(ctx context.Context, au Author, id string) (Written, error) {
	return s.writeAs(ctx, au, func(a *agent.Agent, o agent.WriteOptions) (Written, error) {
		return a.AckHandoff(ctx, id, o)
	})
}

// RecordInput is a record of a generic kind of the kind table, made from
// its row alone.
type RecordInput struct {
	Kind changelog.Kind
	changelog.RecordInput
	Author
}

// Record records a record of a generic kind.
func (s *Project) Record(ctx context.Context, in RecordInput) (Written, error) {
	rec, err := changelog.NewRecord(in.Kind, in.RecordInput)
	return s.write(ctx, in.Author, rec, err)
}

// NoteInput is a raw note to capture.
type NoteInput struct {
	Author
	Text string
	Type changelog.Type
	// AgentKind is the coding agent that noticed it; "" guesses from its
	// environment.
	AgentKind string
}

// Note captures a raw note, and every line appended to the notes inbox
// since, in one commit.
func (s *Project) Note(ctx context.Context, in NoteInput) (Noted, error) {
	a, err := s.agent(ctx, in.Agent)
	if err != nil {
		return Noted{}, err
	}
	return a.Note(ctx, in.Text, in.Type, in.AgentKind, in.options())
}

// CheckpointInput names a checkpoint to save.
type CheckpointInput struct {
	Author
	Name string
	Note string
}

// Checkpoint commits the agent's pending state, writes a checkpoint record
// and tags it checkpoint/<agent>/<name>.
func (s *Project) Checkpoint(ctx context.Context, in CheckpointInput) (Written, error) {
	return s.writeAs(ctx, in.Author, func(a *agent.Agent, o agent.WriteOptions) (Written, error) {
		return a.Checkpoint(ctx, in.Name, in.Note, o)
	})
}

// RetractInput is a record to retract, the project's or the user layer's
// (Scope as LearnInput's).
type RetractInput struct {
	Author
	Scope  Scope
	ID     string
	Reason string
}

// Retract writes the tombstone of a record: a record of its kind that
// supersedes it and says why.
func (s *Project) Retract(ctx context.Context, in RetractInput) (Written, error) {
	return s.onVersion(ctx, in.Author, in.Scope, in.ID, "retract", func(l *userlayer.Layer) (Written, error) {
		return l.Retract(ctx, in.ID, in.Reason)
	}, func(a *agent.Agent, o agent.WriteOptions) (Written, error) {
		return a.Retract(ctx, in.ID, in.Reason, o)
	})
}

// RevalidateInput is a learning to re-anchor, the project's or the user
// layer's.
type RevalidateInput struct {
	Author
	Scope Scope
	ID    string
}

// Revalidate records that a learning still holds: a new version, the same
// content, anchored to the code checkout as it is now (in the user layer,
// with what it cites as it was).
func (s *Project) Revalidate(ctx context.Context, in RevalidateInput) (Written, error) {
	return s.onVersion(ctx, in.Author, in.Scope, in.ID, "revalidate", func(l *userlayer.Layer) (Written, error) {
		return l.Revalidate(ctx, in.ID)
	}, func(a *agent.Agent, o agent.WriteOptions) (Written, error) {
		return lifecycle.Revalidate(ctx, a, in.ID, o)
	})
}

// onVersion makes the write of a command that acts on record id: in the
// user layer, or as the agent.
func (s *Project) onVersion(ctx context.Context, au Author, scope Scope, id, command string,
	inLayer func(*userlayer.Layer) (Written, error), asAgent func(*agent.Agent, agent.WriteOptions) (Written, error),
) (Written, error) {
	user, err := userScope(scope)
	if err != nil {
		return Written{}, err
	}
	if user {
		l, err := s.userRecordLayer(ctx, au, id)
		if err != nil {
			return Written{}, err
		}
		defer func() { _ = l.Close() }() // the cache is only a shortcut
		return inLayer(l)
	}
	w, err := s.writeAs(ctx, au, asAgent)
	return w, s.pointAtUserLayer(ctx, err, command, id)
}

// userRecordLayer opens the user layer for a command on its record id:
// no agent is named in it, it takes no credential, and it exists.
func (s *Project) userRecordLayer(ctx context.Context, au Author, id string) (*userlayer.Layer, error) {
	if au.Agent != "" {
		return nil, planqerr.New(planqerr.Invalid, "", "--agent names an agent of a project; the user layer has none: leave --agent out, or act on the project's record (--scope project)")
	}
	if err := userlayer.CheckAllowSecret(au.AllowSecret); err != nil {
		return nil, err
	}
	l, _, err := s.layer(ctx, false)
	if err != nil {
		return nil, err
	}
	if l == nil {
		return nil, planqerr.New(planqerr.NotFound, id, "no such learning or decision in the user layer: it was never made").
			WithHint("a project's record is acted on without --scope user")
	}
	return l, nil
}

// pointAtUserLayer gives a project command's "no such record" the way to
// the user layer when id is one of its records: the two are kept apart,
// and a person who wrote it with --scope user may not remember.
func (s *Project) pointAtUserLayer(ctx context.Context, err error, command, id string) error {
	var pe *planqerr.Error
	if !errors.As(err, &pe) || pe.Kind != planqerr.NotFound || pe.Subject != id {
		return err
	}
	l, lerr := userHandle(ctx)
	if lerr != nil || l == nil {
		return err
	}
	defer func() { _ = l.Close() }() // the cache is only a shortcut
	if has, herr := userlayer.Has(l, id); herr != nil || !has {
		return err
	}
	found := *pe
	found.Err = errors.New("no such record in this project; the user layer has it")
	found.Hint = "act on it there: planq " + command + " " + id + " --scope user"
	return &found
}

// writeAs makes one write as au's agent.
func (s *Project) writeAs(ctx context.Context, au Author, write func(*agent.Agent, agent.WriteOptions) (Written, error)) (Written, error) {
	a, err := s.agent(ctx, au.Agent)
	if err != nil {
		return Written{}, err
	}
	return write(a, au.options())
}

// write commits rec as au's agent, or passes on why its constructor could
// not make it.
func (s *Project) write(ctx context.Context, au Author, rec *changelog.Record, err error) (Written, error) {
	if err != nil {
		return Written{}, err
	}
	return s.writeAs(ctx, au, func(a *agent.Agent, o agent.WriteOptions) (Written, error) { return a.Write(ctx, rec, o) })
}
