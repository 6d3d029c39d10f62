package changelog

import (
	"slices"
	"strings"
)

// Kind is what a record is; its row in the kind table decides the
// directory, the shard, the fields and the values a record of it may hold.
type Kind string

// The kinds of record. Each has one row in the kind table below.
const (
	KindLog        Kind = "log"
	KindLearning   Kind = "learning"
	KindDecision   Kind = "decision"
	KindHandoff    Kind = "handoff"
	KindCheckpoint Kind = "checkpoint"
	KindNote       Kind = "note"
	KindProposal   Kind = "proposal"
	// KindArticle is a knowledge article: a document, not a record (see
	// Spec.Document and Article).
	KindArticle Kind = "article"
)

// Type is what sort of log entry or learning a record is.
type Type string

// Types of log entries.
const (
	TypeStart     Type = "start"
	TypePlan      Type = "plan"
	TypeImplement Type = "implement"
	TypeDecision  Type = "decision"
	TypeHandoff   Type = "handoff"
	TypeEnd       Type = "end"
)

// Types of learnings (TypeDecision is one too).
const (
	TypeConvention Type = "convention"
	TypePattern    Type = "pattern"
	TypeFailure    Type = "failure"
	TypeReference  Type = "reference"
	TypeGuide      Type = "guide"
)

// Types of notes: about how the work is done (commands, workflow) or about
// the code itself.
const (
	TypeOperational Type = "operational"
	TypeCodebase    Type = "codebase"
)

// TypeArticle is an article's type: its frontmatter's "type: article", the
// Open Knowledge Format's required key.
const TypeArticle Type = "article"

// Status is where a record stands: a log entry's progress, whether the team
// agrees with a learning or decision, whether a handoff was picked up.
type Status string

// Statuses.
const (
	StatusPending      Status = "pending"
	StatusInProgress   Status = "in_progress"
	StatusCompleted    Status = "completed"
	StatusBlocked      Status = "blocked"
	StatusActive       Status = "active"
	StatusDisputed     Status = "disputed"
	StatusAcknowledged Status = "acknowledged"
	// A note's states, in the order curation moves it: captured, part of a
	// proposal, then applied to an instruction file or dismissed.
	StatusRaw       Status = "raw"
	StatusProposed  Status = "proposed"
	StatusApplied   Status = "applied"
	StatusDismissed Status = "dismissed"
	// An article's states besides disputed: what it says holds, or every
	// source it was made from has been superseded, retracted or archived.
	StatusCurrent    Status = "current"
	StatusDeprecated Status = "deprecated"
)

// Classification says how long a learning stays true.
type Classification string

// Classifications, most lasting first.
const (
	Foundational  Classification = "foundational"
	Tactical      Classification = "tactical"
	Observational Classification = "observational"
)

// Classifications lists every classification.
var Classifications = []Classification{Foundational, Tactical, Observational}

// DefaultClassification is a learning's classification when none is given.
const DefaultClassification = Tactical

// Shard is how a kind's directory is split, so that adding a record
// rewrites only a small directory.
type Shard int

// Shard rules.
const (
	ShardByMonth  Shard = iota // <dir>/<YYYY-MM>/<id>.md, by the record's timestamp
	ShardByDomain              // <dir>/<domain>/<id>.md
	ShardByTopic               // <dir>/<topic>/<slug>.md: a document (ArticlePath), not named by an ID
)

// Field names a frontmatter field that only some kinds hold.
type Field string

// Kind-specific fields.
const (
	FieldDecision       Field = "decision"
	FieldAlternatives   Field = "alternatives"
	FieldRationale      Field = "rationale"
	FieldDomain         Field = "domain"
	FieldClassification Field = "classification"
	FieldResolution     Field = "resolution"
	FieldEvidence       Field = "evidence"
	FieldTo             Field = "to"
	FieldName           Field = "name"
	FieldSubject        Field = "subject"
	FieldSources        Field = "sources"
	FieldTags           Field = "tags"
	FieldOrigin         Field = "origin"
	FieldAnchors        Field = "anchors"
	FieldWorkspace      Field = "workspace"
	FieldAgentKind      Field = "agent_kind"
	FieldFiles          Field = "files"
	FieldEntriesUsed    Field = "entries_used"
	FieldDiscarded      Field = "entries_discarded"
)

// fieldSet tells whether a record holds a kind-specific field, in the order
// validation reports them.
var fieldSet = []struct {
	field Field
	set   func(*Record) bool
}{
	{FieldDecision, func(r *Record) bool { return r.Decision != "" }},
	{FieldAlternatives, func(r *Record) bool { return len(r.Alternatives) > 0 }},
	{FieldRationale, func(r *Record) bool { return r.Rationale != "" }},
	{FieldDomain, func(r *Record) bool { return r.Domain != "" }},
	{FieldClassification, func(r *Record) bool { return r.Classification != "" }},
	{FieldResolution, func(r *Record) bool { return r.Resolution != "" }},
	{FieldEvidence, func(r *Record) bool { return r.Evidence != nil }},
	{FieldTo, func(r *Record) bool { return r.To != "" }},
	{FieldName, func(r *Record) bool { return r.Name != "" }},
	{FieldSubject, func(r *Record) bool { return r.Subject != "" }},
	{FieldSources, func(r *Record) bool { return len(r.Sources) > 0 }},
	{FieldTags, func(r *Record) bool { return len(r.Tags) > 0 }},
	{FieldOrigin, func(r *Record) bool { return r.Origin != "" }},
	{FieldAnchors, func(r *Record) bool { return len(r.Anchors) > 0 }},
	{FieldWorkspace, func(r *Record) bool { return r.Workspace != "" }},
	{FieldAgentKind, func(r *Record) bool { return r.AgentKind != "" }},
	{FieldFiles, func(r *Record) bool { return len(r.Files) > 0 }},
	{FieldEntriesUsed, func(r *Record) bool { return len(r.EntriesUsed) > 0 }},
	{FieldDiscarded, func(r *Record) bool { return len(r.EntriesDiscarded) > 0 }},
}

// Spec is one row of the kind table: everything planq knows about a kind.
// Readers and writers consult it instead of switching on the kind.
type Spec struct {
	Kind Kind
	// Noun names a record of the kind in messages ("log entry").
	Noun string
	// Dir is the kind's top-level directory in the state tree.
	Dir   string
	Shard Shard
	// About is the line of the directory's README.
	About string
	// Types a record may have; none means a record of the kind has no type.
	Types        []Type
	TypeRequired bool
	// DefaultType is the type a constructor gives when none is asked for.
	DefaultType Type
	// Statuses a record may have; none means it has no status.
	Statuses []Status
	// Fields are the kind-specific fields a record may hold that have a
	// Record field of their own (and code that knows them).
	Fields []Field
	// Extra are the kind's fields of its own that need no code: each a
	// plain string or list of strings under its YAML key, held in
	// Record.Extra. Parsing, validation, rendering, JSON, the record cache,
	// search and the generic writers learn them from here.
	Extra []ExtraField
	// Generic kinds are written by 'planq record KIND' and MCP's
	// planq_record through NewRecord, which applies the row alone: its
	// default type, its first status, its extra fields.
	Generic bool
	// Promoted kinds are what promote carries from an agent into global.
	Promoted bool
	// Primed kinds appear in what an agent is told at session start.
	Primed bool
	// Searched kinds are what search looks through.
	Searched bool
	// BodyOptional kinds keep their text in a field (a decision's
	// decision, a checkpoint's name), so their body may be empty; every
	// other kind's text is its body, and a record of it without one says
	// nothing (CheckBody).
	BodyOptional bool
	// Document kinds are files people and planq edit in place, named by
	// what they are about rather than by an ID, with frontmatter of their
	// own (an article: Article, ParseArticle). They are no records: the
	// record readers (Kinds, Dirs, KindOfDir, the skeleton, the record
	// cache, validation, repairs) pass over their directory, and a record
	// that claims the kind is refused.
	Document bool
	// check holds the rules of the kind that a table cannot say.
	check func(*Record) error
	// line is the kind's one-line form (Record.Line), headline what a
	// record of it is called in one phrase (Record.Headline); nil for
	// either is the body's first line (see forms.go).
	line, headline func(*Record) string
}

// table is the kind table, in display order. Adding a kind is one row here,
// a constant above, and a constructor (see the package doc).
var table = []Spec{
	{
		Kind: KindLog, Noun: "log entry", Dir: "log", Shard: ShardByMonth,
		About:       "Changelog entries: what an agent did, one file each, sharded by month.",
		Types:       []Type{TypeStart, TypePlan, TypeImplement, TypeDecision, TypeHandoff, TypeEnd},
		DefaultType: TypeImplement, TypeRequired: true,
		Statuses: []Status{StatusPending, StatusInProgress, StatusCompleted, StatusBlocked},
		Primed:   true, Searched: true,
		line: logLine,
	},
	{
		Kind: KindLearning, Noun: "learning", Dir: "learnings", Shard: ShardByDomain,
		About:        "Learnings: conventions, patterns, failures with their resolutions; sharded by domain.",
		Types:        []Type{TypeConvention, TypePattern, TypeFailure, TypeDecision, TypeReference, TypeGuide},
		TypeRequired: true,
		Statuses:     []Status{StatusActive, StatusDisputed},
		Fields:       []Field{FieldDomain, FieldClassification, FieldResolution, FieldEvidence, FieldAnchors, FieldSubject, FieldSources, FieldTags, FieldOrigin},
		Promoted:     true, Primed: true, Searched: true,
		check: checkLearning, line: learningLine,
	},
	{
		Kind: KindDecision, Noun: "decision", Dir: "decisions", Shard: ShardByMonth,
		About:    "Decisions with the alternatives considered and the rationale; sharded by month.",
		Statuses: []Status{StatusActive, StatusDisputed},
		Fields:   []Field{FieldDecision, FieldAlternatives, FieldRationale, FieldSubject, FieldSources, FieldTags, FieldOrigin},
		Promoted: true, Primed: true, Searched: true, BodyOptional: true,
		check: checkDecision, line: decisionLine, headline: decisionHeadline,
	},
	{
		Kind: KindHandoff, Noun: "handoff", Dir: "handoffs", Shard: ShardByMonth,
		About:    "Handoffs: what the next session, or another agent, should pick up; sharded by month.",
		Statuses: []Status{StatusPending, StatusAcknowledged},
		Fields:   []Field{FieldTo},
		Primed:   true, Searched: true,
		check: checkHandoff, line: handoffLine,
	},
	{
		Kind: KindCheckpoint, Noun: "checkpoint", Dir: "checkpoints", Shard: ShardByMonth,
		About:  "Checkpoint notes: named save points, each also a tag checkpoint/<agent>/<name>.",
		Fields: []Field{FieldName}, BodyOptional: true,
		check: checkCheckpoint, line: checkpointLine,
	},
	{
		Kind: KindNote, Noun: "note", Dir: "notes", Shard: ShardByMonth,
		About:       "Raw notes: observations captured in one step, for curation into the project's instruction files; sharded by month.",
		Types:       []Type{TypeOperational, TypeCodebase},
		DefaultType: TypeOperational, TypeRequired: true,
		Statuses: []Status{StatusRaw, StatusProposed, StatusApplied, StatusDismissed},
		Fields:   []Field{FieldWorkspace, FieldAgentKind},
		Promoted: true, Searched: true,
		line: noteLine,
	},
	{
		// A proposal is written on global, where a person reviews it: its
		// state changes are new versions there, never promoted.
		Kind: KindProposal, Noun: "proposal", Dir: "proposals", Shard: ShardByMonth,
		About:    "Curation proposals: additions to the instruction files, from notes, for a person to apply or dismiss; the proposed files are kept under proposed/<id>/.",
		Statuses: []Status{StatusPending, StatusApplied, StatusDismissed},
		Fields:   []Field{FieldFiles, FieldEntriesUsed, FieldDiscarded},
		check:    checkProposal, line: proposalLine,
	},
	{
		// Articles are written on global (planq kb), never promoted: the
		// knowledge package derives them from global's learnings and
		// decisions, and people edit them as files.
		Kind: KindArticle, Noun: "article", Dir: "knowledge", Shard: ShardByTopic,
		About:        "Knowledge articles: what the team knows on one subject, gathered from learnings and decisions; <topic>/<slug>.md, edited in place; _index.md lists them.",
		Types:        []Type{TypeArticle},
		TypeRequired: true,
		Statuses:     []Status{StatusCurrent, StatusDisputed, StatusDeprecated},
		Document:     true,
		line:         articleLine,
	},
}

// Kinds lists every record kind in display order: every kind but the
// documents (Spec.Document).
var Kinds = KindsWhere(isRecordKind)

func isRecordKind(s *Spec) bool { return !s.Document }

// Spec returns the kind's row of the table, nil for a kind planq does not know.
func (k Kind) Spec() *Spec {
	for i := range table {
		if table[i].Kind == k {
			return &table[i]
		}
	}
	return nil
}

// Dir is the top-level directory of the kind in the state tree.
func (k Kind) Dir() string {
	if s := k.Spec(); s != nil {
		return s.Dir
	}
	return ""
}

// Noun names a record of the kind in messages.
func (k Kind) Noun() string {
	if s := k.Spec(); s != nil {
		return s.Noun
	}
	return string(k)
}

// HasField reports whether records of the kind may hold f, a field with a
// Record field of its own or an extra one.
func (s *Spec) HasField(f Field) bool {
	if slices.Contains(s.Fields, f) {
		return true
	}
	_, ok := s.ExtraField(string(f))
	return ok
}

// ExtraField is a field of a kind's own that its row declares in full
// (Spec.Extra): a record holds its value in Record.Extra, a string or, for
// a List field, a []string, and a file under the key.
type ExtraField struct {
	// Key is the field's YAML and JSON key, also the name of its flag
	// (with '-' for '_') and of its MCP property: lower-case letters,
	// digits and '_', no key a Record field has already.
	Key  Field
	List bool
	// Required fields must be given (a tombstone may leave them out).
	Required bool
	// About says what it holds, in the flag's help and the MCP schema.
	About string
}

// ExtraField returns the kind's extra field named key.
func (s *Spec) ExtraField(key string) (ExtraField, bool) {
	for _, f := range s.Extra {
		if string(f.Key) == key {
			return f, true
		}
	}
	return ExtraField{}, false
}

// isExtraKey reports whether a row declares key as an extra field: a
// frontmatter key Parse reads into Record.Extra.
func isExtraKey(key string) bool {
	for i := range table {
		if _, ok := table[i].ExtraField(key); ok {
			return true
		}
	}
	return false
}

// GenericKinds lists the kinds 'planq record' and planq_record write.
func GenericKinds() []Kind { return KindsWhere(func(s *Spec) bool { return s.Generic }) }

// KindOfDir returns the record kind stored in a top-level directory.
func KindOfDir(dir string) (Kind, bool) {
	for _, s := range table {
		if s.Dir == dir && !s.Document {
			return s.Kind, true
		}
	}
	return "", false
}

// Dirs lists the top-level directories of all record kinds.
func Dirs() []string { return DirsOf(Kinds) }

// KindsWhere lists the kinds whose row satisfies keep, in display order.
func KindsWhere(keep func(*Spec) bool) []Kind {
	var out []Kind
	for i := range table {
		if keep(&table[i]) {
			out = append(out, table[i].Kind)
		}
	}
	return out
}

// DirsOf lists the directories of kinds.
func DirsOf(kinds []Kind) []string {
	dirs := make([]string, 0, len(kinds))
	for _, k := range kinds {
		dirs = append(dirs, k.Dir())
	}
	return dirs
}

// Join lists enumerated values for messages and help: "a, b, c" with sep ", ".
func Join[T ~string](vals []T, sep string) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = string(v)
	}
	return strings.Join(parts, sep)
}

// shardOf is the shard directory of r within its kind's directory.
func (s *Spec) shardOf(r *Record) string {
	switch s.Shard {
	case ShardByDomain:
		return r.Domain
	case ShardByTopic:
		// No record is kept by topic: a record of a document kind fails
		// validation before it has a place (see ArticlePath).
		return string(s.Kind)
	case ShardByMonth:
	}
	return r.Timestamp.UTC().Format(monthLayout)
}

const monthLayout = "2006-01"

// RecordPath is where r lives in the state tree.
func RecordPath(r *Record) string {
	s := r.Kind.Spec()
	if s == nil {
		return string(r.Kind) + "/" + r.Timestamp.UTC().Format(monthLayout) + "/" + r.ID + ".md"
	}
	return s.Dir + "/" + s.shardOf(r) + "/" + r.ID + ".md"
}
