package changelog

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/planq-dev/planq/project"
)

// Evidence ties a learning to what shows it.
type Evidence struct {
	Commit string   `yaml:"commit,omitempty" json:"commit,omitempty"`
	Branch string   `yaml:"branch,omitempty" json:"branch,omitempty"`
	Files  []string `yaml:"files,omitempty" json:"files,omitempty"`
	Issue  string   `yaml:"issue,omitempty" json:"issue,omitempty"`
}

// Anchor ties a learning to one file of the code repository as it was when
// the learning was written or last revalidated.
type Anchor struct {
	// Path is the file's path in the code repository, slash-separated.
	Path string `yaml:"path" json:"path"`
	// Lines is the cited range, "FROM-TO" (1-based, inclusive), or empty for
	// the whole file.
	Lines string `yaml:"lines,omitempty" json:"lines,omitempty"`
	// Blob is the file's git blob hash at the cited commit; empty when the
	// commit did not hold the file.
	Blob string `yaml:"blob,omitempty" json:"blob,omitempty"`
}

// ProposedFile is one instruction file of a proposal: the file as it was
// when the proposal was made, and as proposed.
type ProposedFile struct {
	// Path is the file's path in the code repository, slash-separated.
	Path string `yaml:"path" json:"path"`
	// Base is the SHA-256 of the file when the proposal was made, empty
	// when the file did not exist: apply refuses a file that changed since.
	Base string `yaml:"base,omitempty" json:"base,omitempty"`
	// Blob is the git blob of the proposed content in the state repo
	// (kept reachable under proposed/<id>/).
	Blob string `yaml:"blob" json:"blob"`
	// Additions counts the lines the proposal adds to the file.
	Additions int `yaml:"additions" json:"additions"`
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
	Type       Type      `yaml:"type,omitempty" json:"type,omitempty"`
	Timestamp  time.Time `yaml:"timestamp" json:"timestamp"`
	Agent      string    `yaml:"agent" json:"agent"`
	Parent     string    `yaml:"parent,omitempty" json:"parent,omitempty"`
	DependsOn  []string  `yaml:"depends_on,omitempty" json:"depends_on,omitempty"`
	Status     Status    `yaml:"status,omitempty" json:"status,omitempty"`
	Supersedes string    `yaml:"supersedes,omitempty" json:"supersedes,omitempty"`
	Tombstone  bool      `yaml:"tombstone,omitempty" json:"tombstone,omitempty"`
	// Archived marks a tombstone that prune wrote because the record outlived
	// its shelf life: the record left the current view for the archive, and
	// 'planq restore' can bring it back. A retraction is never archived.
	Archived bool `yaml:"archived,omitempty" json:"archived,omitempty"`
	// AllowSecret records that whoever wrote the record said that what looks
	// like a credential in it is none (--allow-secret): push honours it.
	AllowSecret bool `yaml:"allow_secret,omitempty" json:"allow_secret,omitempty"`

	// Learnings and decisions: what it is about (see SubjectKey), and the
	// equivalent records promote merged into this one.
	Subject string   `yaml:"subject,omitempty" json:"subject,omitempty"`
	Sources []Source `yaml:"sources,omitempty" json:"sources,omitempty"`
	// Tags label a learning or decision beyond its domain (mulch's tags).
	Tags []string `yaml:"tags,omitempty" json:"tags,omitempty"`
	// Origin names where an imported record came from ("mulch:mx-1a2b3c"),
	// so that importing the same source again adds nothing.
	Origin string `yaml:"origin,omitempty" json:"origin,omitempty"`

	// Decisions.
	Decision     string   `yaml:"decision,omitempty" json:"decision,omitempty"`
	Alternatives []string `yaml:"alternatives,omitempty" json:"alternatives,omitempty"`
	Rationale    string   `yaml:"rationale,omitempty" json:"rationale,omitempty"`

	// Learnings.
	Domain         string         `yaml:"domain,omitempty" json:"domain,omitempty"`
	Classification Classification `yaml:"classification,omitempty" json:"classification,omitempty"`
	Resolution     string         `yaml:"resolution,omitempty" json:"resolution,omitempty"`
	Evidence       *Evidence      `yaml:"evidence,omitempty" json:"evidence,omitempty"`
	// Anchors are the code files the learning cites, each with its blob at
	// the cited commit, so a reader can tell when the code moved on.
	Anchors []Anchor `yaml:"anchors,omitempty" json:"anchors,omitempty"`

	// Handoffs: the agent meant to pick it up; empty means this agent's next session.
	To string `yaml:"to,omitempty" json:"to,omitempty"`

	// Checkpoints: the checkpoint's name.
	Name string `yaml:"name,omitempty" json:"name,omitempty"`

	// Notes: the code workspace it was captured in, and the coding agent
	// (claude, codex, ...) that captured it.
	Workspace string `yaml:"workspace,omitempty" json:"workspace,omitempty"`
	AgentKind string `yaml:"agent_kind,omitempty" json:"agent_kind,omitempty"`

	// Proposals: the files, the notes used, and the notes discarded with
	// the reason; the body is the summary of the change.
	Files            []ProposedFile    `yaml:"files,omitempty" json:"files,omitempty"`
	EntriesUsed      []string          `yaml:"entries_used,omitempty" json:"entries_used,omitempty"`
	EntriesDiscarded map[string]string `yaml:"entries_discarded,omitempty" json:"entries_discarded,omitempty"`

	// Extra holds the kind's extra fields (Spec.Extra) by key: a string, or
	// a []string for a list. A file holds them after the other keys, in
	// the row's order; JSON under "extra".
	Extra map[string]any `yaml:"-" json:"extra,omitempty"`

	// Body is the Markdown after the frontmatter.
	Body string `yaml:"-" json:"body"`
	// Path is where the record was read from, relative to the state tree.
	Path string `yaml:"-" json:"path,omitempty"`
	// SupersedesRing marks the one version a reader shows of versions that
	// supersede each other in a ring (see readmodel): never written to a
	// file, set only by the reader that found the ring.
	SupersedesRing bool `yaml:"-" json:"supersedes_ring,omitempty"`
}

// Title is the first line of the body, the record's one-line summary.
func (r *Record) Title() string {
	body := strings.TrimSpace(r.Body)
	if i := strings.IndexByte(body, '\n'); i >= 0 {
		body = body[:i]
	}
	return strings.TrimSpace(body)
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

// Validate checks r against the schema of its kind, as the kind table
// states it, and refuses a record that says nothing (CheckBody): what every
// writer checks. It returns the first problem as a *FieldError naming the
// field.
func Validate(r *Record) error {
	if err := validateFields(r); err != nil {
		return err
	}
	return CheckBody(r)
}

// CheckBody refuses a record without text where its kind's text is its
// body (the kind table's BodyOptional says where it is not); a tombstone
// may say nothing. Parse reads such a record, so that readers still show
// one committed by hand, and validate names it.
func CheckBody(r *Record) error {
	spec := r.Kind.Spec()
	if spec == nil || spec.BodyOptional || r.Tombstone || strings.TrimSpace(r.Body) != "" {
		return nil
	}
	return fieldErr("body", "is empty: a %s's text is its body, below the frontmatter", spec.Noun)
}

// validateFields is Validate without CheckBody: the frontmatter's rules,
// which a file must keep to be read as a record at all.
func validateFields(r *Record) error {
	if err := checkHeader(r); err != nil {
		return err
	}
	if err := checkLabels(r); err != nil {
		return err
	}
	if r.Archived && !r.Tombstone {
		return fieldErr("archived", "only a tombstone is archived")
	}
	spec, err := recordSpec(r)
	if err != nil {
		return err
	}
	if err := checkTypeAndStatus(r, spec); err != nil {
		return err
	}
	if spec.check != nil {
		if err := spec.check(r); err != nil {
			return err
		}
	}
	// A field of another kind is an error rather than data that silently
	// means nothing: a typo'd or misplaced key.
	for _, f := range fieldSet {
		if f.set(r) && !slices.Contains(spec.Fields, f.field) {
			return fieldErr(string(f.field), "a %s has no %s", r.Kind, f.field)
		}
	}
	return checkExtra(r, spec)
}

// checkHeader checks the fields every record has: its ID, time and agent,
// the records it names, its subject and its sources.
func checkHeader(r *Record) error {
	if !ValidID(r.ID) {
		return fieldErr("id", "%q is not a record id (pq- and hex digits)", r.ID)
	}
	if r.Timestamp.IsZero() {
		return fieldErr("timestamp", "is missing")
	}
	if !project.ValidName(r.Agent) {
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
		if !ValidID(s.ID) || !project.ValidName(s.Agent) {
			return fieldErr("sources", "%q from %q is not a record id and agent", s.ID, s.Agent)
		}
	}
	return nil
}

// recordSpec is the kind table's row of r's kind: refused for an unknown
// kind, or a document's.
func recordSpec(r *Record) (*Spec, error) {
	spec := r.Kind.Spec()
	if spec == nil {
		return nil, fieldErr("kind", "unknown record kind %q (want one of %s)", r.Kind, Join(Kinds, ", "))
	}
	if spec.Document {
		return nil, fieldErr("kind", "a %s is no record: it is a document of its own (%s/<topic>/<slug>.md), not a record kind (want one of %s)", spec.Noun, spec.Dir, Join(Kinds, ", "))
	}
	return spec, nil
}

// checkTypeAndStatus holds r's type and status to its kind's.
func checkTypeAndStatus(r *Record, spec *Spec) error {
	if len(spec.Types) == 0 && r.Type != "" {
		return fieldErr("type", "a %s has no type", r.Kind)
	}
	if err := oneOf("type", r.Type, spec.Types, spec.TypeRequired); err != nil {
		return err
	}
	if len(spec.Statuses) == 0 && r.Status != "" {
		return fieldErr("status", "a %s has no status", r.Kind)
	}
	return oneOf("status", r.Status, spec.Statuses, false)
}

// checkExtra holds r's extra fields to its row: each declared there, of
// the declared type, the required ones present.
func checkExtra(r *Record, spec *Spec) error {
	for _, f := range spec.Extra {
		v, ok := r.Extra[string(f.Key)]
		if !ok || isEmptyExtra(v) {
			if f.Required && !r.Tombstone {
				return fieldErr(string(f.Key), "is missing: a %s has one", spec.Noun)
			}
			continue
		}
		switch v.(type) {
		case string:
			if f.List {
				return fieldErr(string(f.Key), "is one string; a %s's %s is a list of strings", spec.Noun, f.Key)
			}
		case []string:
			if !f.List {
				return fieldErr(string(f.Key), "is a list; a %s's %s is one string", spec.Noun, f.Key)
			}
		default:
			return fieldErr(string(f.Key), "is neither a string nor a list of strings; a %s's %s is %s", spec.Noun, f.Key, f.typeName())
		}
	}
	if len(r.Extra) == 0 {
		return nil
	}
	keys := make([]string, 0, len(r.Extra))
	for k := range r.Extra {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if _, ok := spec.ExtraField(k); !ok {
			return fieldErr(k, "a %s has no %s", r.Kind, k)
		}
	}
	return nil
}

// isEmptyExtra says v is no value: as a file leaves out an empty field
// (Render), an empty string or list is none.
func isEmptyExtra(v any) bool {
	switch v := v.(type) {
	case string:
		return v == ""
	case []string:
		return len(v) == 0
	}
	return v == nil
}

func (f ExtraField) typeName() string {
	if f.List {
		return "a list of strings"
	}
	return "one string"
}

// ExtraText is the value of r's extra string field key, "" when it has none.
func (r *Record) ExtraText(key Field) string {
	s, _ := r.Extra[string(key)].(string)
	return s
}

// ExtraList is the value of r's extra list field key.
func (r *Record) ExtraList(key Field) []string {
	l, _ := r.Extra[string(key)].([]string)
	return l
}

func checkLearning(r *Record) error {
	if !project.ValidName(r.Domain) {
		return fieldErr("domain", "%q is not a domain name (letters, digits, '-', '_')", r.Domain)
	}
	if err := oneOf("classification", r.Classification, Classifications, true); err != nil {
		return err
	}
	if r.Type == TypeFailure && strings.TrimSpace(r.Resolution) == "" && !r.Tombstone {
		return fieldErr("resolution", "a failure learning needs a resolution")
	}
	return nil
}

// checkLabels holds tags, origin and anchors to what readers can show on
// one line and find again: no line breaks, no empty tag, anchors that are
// clean paths inside the code repository.
func checkLabels(r *Record) error {
	for _, t := range r.Tags {
		if strings.TrimSpace(t) == "" || strings.ContainsAny(t, "\n\r") || len(t) > 1000 {
			return fieldErr("tags", "%q is not a tag (one line of at most 1000 characters)", t)
		}
	}
	if strings.ContainsAny(r.Origin, "\n\r") || len(r.Origin) > 200 {
		return fieldErr("origin", "must be one line of at most 200 characters")
	}
	for _, a := range r.Anchors {
		if err := a.Check(); err != nil {
			return fieldErr("anchors", "%v", err)
		}
	}
	return nil
}

// Check reports what is wrong with an anchor: a path that is not a clean
// relative path inside the repository, a line range that is not FROM-TO, a
// blob that is not a hash.
func (a Anchor) Check() error {
	if !ValidRepoPath(a.Path) {
		return fmt.Errorf("%q is not a clean path relative to the code repository", a.Path)
	}
	if a.Lines != "" {
		if _, _, ok := ParseLines(a.Lines); !ok {
			return fmt.Errorf("%s: lines %q are not FROM-TO (1-based, FROM <= TO)", a.Path, a.Lines)
		}
	}
	if a.Blob != "" && !isHex(a.Blob, 40) {
		return fmt.Errorf("%s: blob %q is not a git object id", a.Path, a.Blob)
	}
	return nil
}

// ParseLines reads an anchor's line range, "FROM-TO" or a single "N".
func ParseLines(s string) (from, to int, ok bool) {
	a, b, found := strings.Cut(s, "-")
	if !found {
		b = a
	}
	from, err1 := strconv.Atoi(a)
	to, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || from < 1 || to < from || strings.HasPrefix(a, "+") || strings.HasPrefix(b, "+") {
		return 0, 0, false
	}
	return from, to, true
}

func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

func checkDecision(r *Record) error {
	if strings.TrimSpace(r.Decision) == "" && !r.Tombstone {
		return fieldErr("decision", "is missing")
	}
	return nil
}

func checkHandoff(r *Record) error {
	if r.To != "" && !project.ValidName(r.To) {
		return fieldErr("to", "%q is not an agent name", r.To)
	}
	return nil
}

func checkProposal(r *Record) error {
	if len(r.Files) == 0 && len(r.EntriesDiscarded) == 0 && !r.Tombstone {
		return fieldErr("files", "a proposal changes a file or discards a note")
	}
	for _, f := range r.Files {
		if !ValidRepoPath(f.Path) {
			return fieldErr("files", "%q is not a path inside the code repository", f.Path)
		}
		if !isHex(f.Blob, 40) || (f.Base != "" && !isHex(f.Base, 64)) || f.Additions < 0 {
			return fieldErr("files", "%s: blob, base or additions is not what planq writes", f.Path)
		}
	}
	for _, id := range r.EntriesUsed {
		if !ValidID(id) {
			return fieldErr("entries_used", "%q is not a record id", id)
		}
	}
	for id := range r.EntriesDiscarded {
		if !ValidID(id) {
			return fieldErr("entries_discarded", "%q is not a record id", id)
		}
	}
	return nil
}

// ValidRepoPath reports whether p names a file or directory inside a
// repository: relative, slash-separated, clean, on one line, without
// surrounding spaces, with no ".", "..", ".git" or empty element. It is
// project.ValidRepoPath, which .planq/config's paths are held to as well.
func ValidRepoPath(p string) bool { return project.ValidRepoPath(p) }

func checkCheckpoint(r *Record) error {
	if !project.ValidName(r.Name) {
		return fieldErr("name", "%q is not a checkpoint name", r.Name)
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

func oneOf[T ~string](field string, val T, allowed []T, required bool) error {
	if val == "" && !required {
		return nil
	}
	if val == "" {
		return fieldErr(field, "is missing (want one of %s)", Join(allowed, ", "))
	}
	if !slices.Contains(allowed, val) {
		return fieldErr(field, "unknown value %q (want one of %s)", val, Join(allowed, ", "))
	}
	return nil
}
