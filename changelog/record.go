package changelog

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Kind is what a record is; it decides the directory and the schema.
type Kind string

// The kinds of record.
const (
	KindLog        Kind = "log"
	KindLearning   Kind = "learning"
	KindDecision   Kind = "decision"
	KindHandoff    Kind = "handoff"
	KindCheckpoint Kind = "checkpoint"
)

// Kinds lists every kind in display order.
var Kinds = []Kind{KindLog, KindLearning, KindDecision, KindHandoff, KindCheckpoint}

// Dir is the top-level directory of the kind in the state tree.
func (k Kind) Dir() string {
	switch k {
	case KindLog:
		return "log"
	case KindLearning:
		return "learnings"
	case KindDecision:
		return "decisions"
	case KindHandoff:
		return "handoffs"
	case KindCheckpoint:
		return "checkpoints"
	}
	return ""
}

// KindOfDir returns the kind stored in a top-level directory.
func KindOfDir(dir string) (Kind, bool) {
	for _, k := range Kinds {
		if k.Dir() == dir {
			return k, true
		}
	}
	return "", false
}

// Dirs lists the top-level directories of all kinds.
func Dirs() []string {
	dirs := make([]string, len(Kinds))
	for i, k := range Kinds {
		dirs[i] = k.Dir()
	}
	return dirs
}

// Allowed values of the enumerated fields.
var (
	LogTypes          = []string{"start", "plan", "implement", "decision", "handoff", "end"}
	LogStatuses       = []string{"pending", "in_progress", "completed", "blocked"}
	LearningTypes     = []string{"convention", "pattern", "failure", "decision", "reference", "guide"}
	Classifications   = []string{"foundational", "tactical", "observational"}
	OpinionStatuses   = []string{"active", "disputed"}
	HandoffStatuses   = []string{"pending", "acknowledged"}
	DefaultClassifier = "tactical"
)

// Evidence ties a learning to what shows it.
type Evidence struct {
	Commit string   `yaml:"commit,omitempty" json:"commit,omitempty"`
	Branch string   `yaml:"branch,omitempty" json:"branch,omitempty"`
	Files  []string `yaml:"files,omitempty" json:"files,omitempty"`
	Issue  string   `yaml:"issue,omitempty" json:"issue,omitempty"`
}

// Source names a record that promote found equivalent to another and
// merged into it: the same learning or decision, from another agent.
type Source struct {
	ID    string `yaml:"id" json:"id"`
	Agent string `yaml:"agent" json:"agent"`
}

// Record is one record: frontmatter fields and a Markdown body. The field
// order here is the order of keys in the files planq writes.
type Record struct {
	ID         string    `yaml:"id" json:"id"`
	Kind       Kind      `yaml:"kind" json:"kind"`
	Type       string    `yaml:"type,omitempty" json:"type,omitempty"`
	Timestamp  time.Time `yaml:"timestamp" json:"timestamp"`
	Agent      string    `yaml:"agent" json:"agent"`
	Parent     string    `yaml:"parent,omitempty" json:"parent,omitempty"`
	DependsOn  []string  `yaml:"depends_on,omitempty" json:"depends_on,omitempty"`
	Status     string    `yaml:"status,omitempty" json:"status,omitempty"`
	Supersedes string    `yaml:"supersedes,omitempty" json:"supersedes,omitempty"`
	Tombstone  bool      `yaml:"tombstone,omitempty" json:"tombstone,omitempty"`

	// Learnings and decisions: what it is about (see SubjectKey), and the
	// equivalent records promote merged into this one.
	Subject string   `yaml:"subject,omitempty" json:"subject,omitempty"`
	Sources []Source `yaml:"sources,omitempty" json:"sources,omitempty"`

	// Decisions.
	Decision     string   `yaml:"decision,omitempty" json:"decision,omitempty"`
	Alternatives []string `yaml:"alternatives,omitempty" json:"alternatives,omitempty"`
	Rationale    string   `yaml:"rationale,omitempty" json:"rationale,omitempty"`

	// Learnings.
	Domain         string    `yaml:"domain,omitempty" json:"domain,omitempty"`
	Classification string    `yaml:"classification,omitempty" json:"classification,omitempty"`
	Resolution     string    `yaml:"resolution,omitempty" json:"resolution,omitempty"`
	Evidence       *Evidence `yaml:"evidence,omitempty" json:"evidence,omitempty"`

	// Handoffs: the agent meant to pick it up; empty means this agent's next session.
	To string `yaml:"to,omitempty" json:"to,omitempty"`

	// Checkpoints: the checkpoint's name.
	Name string `yaml:"name,omitempty" json:"name,omitempty"`

	// Body is the Markdown after the frontmatter.
	Body string `yaml:"-" json:"body"`
	// Path is where the record was read from, relative to the state tree.
	Path string `yaml:"-" json:"path,omitempty"`
}

// Title is the first line of the body, the record's one-line summary.
func (r *Record) Title() string {
	body := strings.TrimSpace(r.Body)
	if i := strings.IndexByte(body, '\n'); i >= 0 {
		body = body[:i]
	}
	return strings.TrimSpace(body)
}

// RecordPath is where r lives in the state tree.
func RecordPath(r *Record) string {
	shard := r.Timestamp.UTC().Format("2006-01")
	if r.Kind == KindLearning {
		shard = r.Domain
	}
	return r.Kind.Dir() + "/" + shard + "/" + r.ID + ".md"
}

// FieldError is a validation failure of one frontmatter field.
type FieldError struct {
	Field string
	Msg   string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Msg }

func fieldErr(field, format string, args ...any) *FieldError {
	return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// Validate checks r against the schema of its kind. It returns the first
// problem as a *FieldError naming the field.
func Validate(r *Record) error {
	if !ValidID(r.ID) {
		return fieldErr("id", "%q is not a record id (pq- and hex digits)", r.ID)
	}
	if r.Timestamp.IsZero() {
		return fieldErr("timestamp", "is missing")
	}
	if !validAgentName(r.Agent) {
		return fieldErr("agent", "%q is not an agent name", r.Agent)
	}
	for _, ref := range append([]string{r.Parent, r.Supersedes}, r.DependsOn...) {
		if ref != "" && !ValidID(ref) {
			return fieldErr(refField(r, ref), "%q is not a record id", ref)
		}
	}
	if strings.ContainsAny(r.Subject, "\n\r") || len(r.Subject) > 200 {
		return fieldErr("subject", "must be one line of at most 200 characters")
	}
	for _, s := range r.Sources {
		if !ValidID(s.ID) || !validAgentName(s.Agent) {
			return fieldErr("sources", "%q from %q is not a record id and agent", s.ID, s.Agent)
		}
	}
	switch r.Kind {
	case KindLog:
		if err := oneOf("type", r.Type, LogTypes, true); err != nil {
			return err
		}
		if err := oneOf("status", r.Status, LogStatuses, false); err != nil {
			return err
		}
	case KindLearning:
		if err := oneOf("type", r.Type, LearningTypes, true); err != nil {
			return err
		}
		if !validAgentName(r.Domain) {
			return fieldErr("domain", "%q is not a domain name (letters, digits, '-', '_')", r.Domain)
		}
		if err := oneOf("classification", r.Classification, Classifications, true); err != nil {
			return err
		}
		if r.Type == "failure" && strings.TrimSpace(r.Resolution) == "" && !r.Tombstone {
			return fieldErr("resolution", "a failure learning needs a resolution")
		}
		if err := oneOf("status", r.Status, OpinionStatuses, false); err != nil {
			return err
		}
	case KindDecision:
		if strings.TrimSpace(r.Decision) == "" && !r.Tombstone {
			return fieldErr("decision", "is missing")
		}
		if err := oneOf("status", r.Status, OpinionStatuses, false); err != nil {
			return err
		}
	case KindHandoff:
		if r.To != "" && !validAgentName(r.To) {
			return fieldErr("to", "%q is not an agent name", r.To)
		}
		if err := oneOf("status", r.Status, HandoffStatuses, false); err != nil {
			return err
		}
	case KindCheckpoint:
		if !validAgentName(r.Name) {
			return fieldErr("name", "%q is not a checkpoint name", r.Name)
		}
	default:
		return fieldErr("kind", "unknown record kind %q (want one of %s)", r.Kind, kindList())
	}
	if r.Kind != KindLog && r.Kind != KindLearning && r.Type != "" {
		return fieldErr("type", "a %s has no type", r.Kind)
	}
	return validateKindFields(r)
}

// validateKindFields rejects fields that belong to another kind, so a typo'd
// or misplaced key is an error rather than data that silently means nothing.
func validateKindFields(r *Record) error {
	foreign := map[string]bool{
		"decision":       r.Decision != "" && r.Kind != KindDecision,
		"alternatives":   len(r.Alternatives) > 0 && r.Kind != KindDecision,
		"rationale":      r.Rationale != "" && r.Kind != KindDecision,
		"domain":         r.Domain != "" && r.Kind != KindLearning,
		"classification": r.Classification != "" && r.Kind != KindLearning,
		"resolution":     r.Resolution != "" && r.Kind != KindLearning,
		"evidence":       r.Evidence != nil && r.Kind != KindLearning,
		"to":             r.To != "" && r.Kind != KindHandoff,
		"subject":        r.Subject != "" && r.Kind != KindLearning && r.Kind != KindDecision,
		"sources":        len(r.Sources) > 0 && r.Kind != KindLearning && r.Kind != KindDecision,
		"name":           r.Name != "" && r.Kind != KindCheckpoint,
	}
	for _, f := range []string{"decision", "alternatives", "rationale", "domain", "classification", "resolution", "evidence", "to", "name", "subject", "sources"} {
		if foreign[f] {
			return fieldErr(f, "a %s has no %s", r.Kind, f)
		}
	}
	return nil
}

func refField(r *Record, ref string) string {
	switch ref {
	case r.Parent:
		return "parent"
	case r.Supersedes:
		return "supersedes"
	}
	return "depends_on"
}

func oneOf(field, val string, allowed []string, required bool) error {
	if val == "" && !required {
		return nil
	}
	if val == "" {
		return fieldErr(field, "is missing (want one of %s)", strings.Join(allowed, ", "))
	}
	if !slices.Contains(allowed, val) {
		return fieldErr(field, "unknown value %q (want one of %s)", val, strings.Join(allowed, ", "))
	}
	return nil
}

func kindList() string {
	names := make([]string, len(Kinds))
	for i, k := range Kinds {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}

// NewDecision is a decision record with its body written out, so that a
// reader of the file (or of git log) sees the whole decision in prose.
func NewDecision(decision string, alternatives []string, rationale, subject string) *Record {
	body := decision
	because := strings.TrimSuffix(strings.TrimSpace(rationale), ".")
	if len(alternatives) > 0 {
		body += fmt.Sprintf("\n\nChosen over %s, because %s.", strings.Join(alternatives, ", "), because)
	} else {
		body += fmt.Sprintf("\n\nBecause %s.", because)
	}
	return &Record{Kind: KindDecision, Decision: decision, Alternatives: alternatives, Rationale: rationale, Subject: subject, Body: body}
}
