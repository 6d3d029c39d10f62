package changelog

import (
	"fmt"
	"strings"

	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
)

// The constructors below are the one place a record is made from what a
// person or an agent asked for: the command line, the MCP server and the
// git hooks only translate flags or JSON into their inputs. Each applies the
// kind's defaults and refuses what is missing or wrong with a planqerr error
// and a hint. The writer (agent.Write) then stamps the ID, time, agent and,
// for learnings without evidence of a commit, the evidence default: HEAD of
// the code checkout the agent is mounted in.

// LogInput is what a log entry says.
type LogInput struct {
	Text      string
	Type      Type // default: the kind's default type (implement)
	Status    Status
	DependsOn []string
}

// NewLog makes a log entry.
func NewLog(in LogInput) (*Record, error) {
	if err := requireText(KindLog, in.Text, "say what happened, in a sentence or more"); err != nil {
		return nil, err
	}
	spec := KindLog.Spec()
	if in.Type == "" {
		in.Type = spec.DefaultType
	}
	if err := allowed(KindLog, "type", in.Type, spec.Types, false); err != nil {
		return nil, err
	}
	if err := allowed(KindLog, "status", in.Status, spec.Statuses, true); err != nil {
		return nil, err
	}
	if err := recordIDs("depends_on", in.DependsOn...); err != nil {
		return nil, err
	}
	return &Record{Kind: KindLog, Type: in.Type, Status: in.Status, DependsOn: in.DependsOn, Body: in.Text}, nil
}

// LearningInput is what a learning says.
type LearningInput struct {
	Text           string
	Type           Type
	Domain         string
	Classification Classification // default: tactical
	Resolution     string         // required for failures
	// Evidence ties the learning to the code; a missing commit is filled
	// in when it is written.
	Evidence   Evidence
	Supersedes string
	Subject    string
	// Files are the code files it cites, "PATH" or "PATH:FROM-TO": its
	// anchors, with the evidence's files (their blobs are filled in when it
	// is written).
	Files []string
}

// NewLearning makes a learning.
func NewLearning(in LearningInput) (*Record, error) {
	if err := requireText(KindLearning, in.Text, "say what the next session must know"); err != nil {
		return nil, err
	}
	spec := KindLearning.Spec()
	if in.Type == "" {
		return nil, planqerr.New(planqerr.Invalid, "learning", "has no type").
			WithHint("give its type: %s", Join(spec.Types, ", "))
	}
	if err := allowed(KindLearning, "type", in.Type, spec.Types, false); err != nil {
		return nil, err
	}
	if err := project.ValidateName("domain", in.Domain); err != nil {
		return nil, err
	}
	if in.Classification == "" {
		in.Classification = DefaultClassification
	}
	if err := allowed(KindLearning, "classification", in.Classification, Classifications, false); err != nil {
		return nil, err
	}
	if in.Type == TypeFailure && strings.TrimSpace(in.Resolution) == "" {
		return nil, planqerr.New(planqerr.Invalid, string(KindLearning), "%w", fieldErr("resolution", "a failure learning needs a resolution")).
			WithHint("say how it was fixed or worked around (--resolution on the command line, resolution over MCP)")
	}
	if err := recordIDs("supersedes", in.Supersedes); err != nil {
		return nil, err
	}
	var ev *Evidence
	if in.Evidence.Commit != "" || in.Evidence.Branch != "" || in.Evidence.Issue != "" || len(in.Evidence.Files) > 0 {
		e := in.Evidence
		ev = &e
	}
	anchors, err := AnchorsOf(in.Files, in.Evidence.Files)
	if err != nil {
		return nil, err
	}
	return &Record{Kind: KindLearning, Type: in.Type, Domain: in.Domain, Classification: in.Classification,
		Resolution: in.Resolution, Evidence: ev, Anchors: anchors, Supersedes: in.Supersedes, Subject: in.Subject, Body: in.Text}, nil
}

// DecisionInput is what a decision says.
type DecisionInput struct {
	Decision     string
	Alternatives []string
	Rationale    string
	Supersedes   string
	Subject      string
}

// NewDecision makes a decision with its body written out, so that a reader
// of the file (or of git log) sees the whole decision in prose.
func NewDecision(in DecisionInput) (*Record, error) {
	if err := requireText(KindDecision, in.Decision, "say what was decided"); err != nil {
		return nil, err
	}
	if strings.TrimSpace(in.Rationale) == "" {
		return nil, planqerr.New(planqerr.Invalid, "decision", "has no rationale").
			WithHint(`say why (--because "..." on the command line, because over MCP); a decision without its reason cannot be revisited`)
	}
	if err := recordIDs("supersedes", in.Supersedes); err != nil {
		return nil, err
	}
	body := in.Decision
	because := strings.TrimSuffix(strings.TrimSpace(in.Rationale), ".")
	if len(in.Alternatives) > 0 {
		body += fmt.Sprintf("\n\nChosen over %s, because %s.", strings.Join(in.Alternatives, ", "), because)
	} else {
		body += fmt.Sprintf("\n\nBecause %s.", because)
	}
	return &Record{Kind: KindDecision, Decision: in.Decision, Alternatives: in.Alternatives, Rationale: in.Rationale,
		Supersedes: in.Supersedes, Subject: in.Subject, Body: body}, nil
}

// HandoffInput is what a handoff says.
type HandoffInput struct {
	Text string
	// To is the agent meant to pick it up; empty means this agent's next session.
	To string
}

// NewHandoff makes a pending handoff.
func NewHandoff(in HandoffInput) (*Record, error) {
	if err := requireText(KindHandoff, in.Text, "say what the next session should pick up"); err != nil {
		return nil, err
	}
	if in.To != "" {
		if err := project.ValidateName("agent", in.To); err != nil {
			return nil, err
		}
	}
	return &Record{Kind: KindHandoff, To: in.To, Status: StatusPending, Body: in.Text}, nil
}

// Acknowledged is the new version of handoff h that says agent picked it up.
func Acknowledged(h *Record, agent string) *Record {
	return &Record{Kind: KindHandoff, To: h.To, Status: StatusAcknowledged, Supersedes: h.ID,
		Body: strings.TrimSpace(h.Body) + "\n\nAcknowledged by " + agent + "."}
}

// NewTombstone makes the record that retracts target: a record of its
// kind that supersedes it and says why, carrying only what its kind needs to
// be filed beside it (type, domain, classification, name), never target's
// text. Readers drop both; nothing is deleted from history.
func NewTombstone(target *Record, reason string) (*Record, error) {
	if target.Tombstone {
		return nil, planqerr.New(planqerr.Invalid, target.ID, "is a retraction already").
			WithHint("a retraction cannot be retracted; write the record again instead")
	}
	body := "Retracted " + target.ID + "."
	if reason = strings.TrimSpace(reason); reason != "" {
		body = "Retracted " + target.ID + ": " + reason
	}
	return &Record{Kind: target.Kind, Type: target.Type, Domain: target.Domain, Classification: target.Classification,
		Name: target.Name, Subject: target.Subject, Supersedes: target.ID, Tombstone: true, Body: body}, nil
}

// CheckpointInput names a checkpoint and says what state it is.
type CheckpointInput struct {
	Name string
	Note string // default: "Checkpoint <name>"
}

// NewCheckpoint makes a checkpoint note.
func NewCheckpoint(in CheckpointInput) (*Record, error) {
	if err := project.ValidateName("checkpoint", in.Name); err != nil {
		return nil, err
	}
	note := in.Note
	if strings.TrimSpace(note) == "" {
		note = "Checkpoint " + in.Name
	}
	return &Record{Kind: KindCheckpoint, Name: in.Name, Body: note}, nil
}

func requireText(kind Kind, text, hint string) error {
	if strings.TrimSpace(text) == "" {
		return planqerr.New(planqerr.Invalid, kind.Noun(), "text is empty").WithHint("%s", hint)
	}
	return nil
}

// allowed refuses a value the kind table does not list, in the words
// validation uses for a stored record: "<kind>: <field>: <problem>".
func allowed[T ~string](kind Kind, field string, val T, vals []T, optional bool) error {
	if err := oneOf(field, val, vals, !optional); err != nil {
		return planqerr.New(planqerr.Invalid, string(kind), "%w", err).
			WithHint("use one of %s", Join(vals, ", "))
	}
	return nil
}

func recordIDs(field string, ids ...string) error {
	for _, id := range ids {
		if id != "" && !ValidID(id) {
			return planqerr.New(planqerr.Invalid, field, "%q is not a record id", id).
				WithHint("record ids look like pq-3f9a1c2e4b; 'planq log' and 'planq search WORDS' show them")
		}
	}
	return nil
}

// NoteInput is a raw note: an observation captured in one step.
type NoteInput struct {
	Text string
	Type Type // default operational
	// Workspace is the code workspace it was captured in; AgentKind the
	// coding agent that captured it (claude, codex, ...), when known.
	Workspace string
	AgentKind string
}

// NewNote makes a raw note, the first state of a note's curation.
func NewNote(in NoteInput) (*Record, error) {
	if err := requireText(KindNote, in.Text, "say what you noticed, in a line"); err != nil {
		return nil, err
	}
	spec := KindNote.Spec()
	if in.Type == "" {
		in.Type = spec.DefaultType
	}
	if err := allowed(KindNote, "type", in.Type, spec.Types, false); err != nil {
		return nil, err
	}
	return &Record{Kind: KindNote, Type: in.Type, Status: StatusRaw, Workspace: oneLineOf(in.Workspace), AgentKind: oneLineOf(in.AgentKind),
		Body: strings.TrimSpace(in.Text)}, nil
}

func oneLineOf(s string) string { return strings.Join(strings.Fields(s), " ") }

// ProposalInput is a curation proposal as planq keeps it: the files with
// their blobs already written to the state repo.
type ProposalInput struct {
	Summary   string
	Files     []ProposedFile
	Used      []string
	Discarded map[string]string
}

// NewProposal makes a pending proposal.
func NewProposal(in ProposalInput) (*Record, error) {
	if err := requireText(KindProposal, in.Summary, "say in a line or two what the proposal adds (diff_summary)"); err != nil {
		return nil, err
	}
	r := &Record{Kind: KindProposal, Status: StatusPending, Files: in.Files, EntriesUsed: in.Used,
		EntriesDiscarded: in.Discarded, Body: strings.TrimSpace(in.Summary)}
	if len(r.EntriesDiscarded) == 0 {
		r.EntriesDiscarded = nil
	}
	return r, nil
}

// RecordInput is what a record of a generic kind says (Spec.Generic).
type RecordInput struct {
	Text string
	Type Type // default: the kind's default type
	// Extra are the values of the kind's extra fields (Spec.Extra) by key:
	// a string, or a []string for a list (as JSON decodes one, a []any of
	// strings, does too).
	Extra map[string]any
}

// NewRecord makes a record of a generic kind from its row alone: the
// kind's default type, its first status, and its extra fields, each as the
// row declares it. What a kind needs beyond that is a constructor of its own.
func NewRecord(kind Kind, in RecordInput) (*Record, error) {
	spec := kind.Spec()
	if spec == nil || !spec.Generic {
		return nil, planqerr.New(planqerr.Invalid, string(kind), "is not a kind written this way").
			WithHint("kinds written this way: %s; every other kind has a command of its own", orNone(GenericKinds()))
	}
	if !spec.BodyOptional {
		if err := requireText(kind, in.Text, "say what the "+spec.Noun+" says, in a sentence or more"); err != nil {
			return nil, err
		}
	}
	r := &Record{Kind: kind, Type: in.Type, Body: strings.TrimSpace(in.Text)}
	if len(spec.Types) > 0 {
		if r.Type == "" {
			r.Type = spec.DefaultType
		}
		if err := allowed(kind, "type", r.Type, spec.Types, !spec.TypeRequired); err != nil {
			return nil, err
		}
	} else if r.Type != "" {
		return nil, planqerr.New(planqerr.Invalid, string(kind), "a %s has no type", spec.Noun).
			WithHint("leave the type out")
	}
	if len(spec.Statuses) > 0 {
		r.Status = spec.Statuses[0]
	}
	for k, v := range in.Extra {
		v = extraInput(v)
		if isEmptyExtra(v) {
			continue
		}
		if r.Extra == nil {
			r.Extra = map[string]any{}
		}
		r.Extra[k] = v
	}
	if err := checkExtra(r, spec); err != nil {
		return nil, planqerr.New(planqerr.Invalid, string(kind), "%w", err).
			WithHint("a %s's fields of its own: %s", spec.Noun, extraHelp(spec))
	}
	return r, nil
}

// extraInput is v as a record holds it: a string trimmed; a list, also
// one JSON decoded, a []string of its items trimmed, without empty ones.
// Anything else is left for validation to name.
func extraInput(v any) any {
	switch v := v.(type) {
	case string:
		return strings.TrimSpace(v)
	case []string:
		var out []string
		for _, s := range v {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
		return out
	case []any:
		out := make([]string, 0, len(v))
		for _, item := range v {
			s, ok := item.(string)
			if !ok {
				return v
			}
			out = append(out, s)
		}
		return extraInput(out)
	}
	return v
}

func extraHelp(spec *Spec) string {
	if len(spec.Extra) == 0 {
		return "none"
	}
	parts := make([]string, len(spec.Extra))
	for i, f := range spec.Extra {
		parts[i] = string(f.Key) + " (" + f.typeName()
		if f.Required {
			parts[i] += ", required"
		}
		parts[i] += ")"
	}
	return strings.Join(parts, ", ")
}

func orNone(kinds []Kind) string {
	if len(kinds) == 0 {
		return "none"
	}
	return Join(kinds, ", ")
}
