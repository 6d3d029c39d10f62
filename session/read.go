package session

import (
	"context"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/prime"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/search"
)

// The read model's shapes, as the front ends present them.
type (
	// Hit is one record, article or memory file a search found.
	Hit = readmodel.Hit
	// HitExplain is how a hit came by its place, when the search was
	// explained.
	HitExplain = readmodel.HitExplain
	// VectorStatus says whether a search ranked by meaning too, by which
	// model, or why not.
	VectorStatus = readmodel.VectorStatus
	// SearchResults are the hits of a search of this project, best first.
	SearchResults = readmodel.Results
	// Excerpt is lines of one file of the state repository.
	Excerpt = readmodel.Excerpt
	// AsOf is the moment in the past a read was pinned to.
	AsOf = readmodel.AsOf
)

// Search limits, and the lines a get reads when it is given no end.
const (
	DefaultSearchLimit = readmodel.DefaultSearchLimit
	MaxSearchLimit     = readmodel.MaxSearchLimit
	DefaultGetLines    = readmodel.DefaultGetLines
)

// VectorChannel names the ranking by meaning among an explained hit's
// places.
var VectorChannel = search.Vector.String()

// UserLayerKinds are the kinds the user layer holds: what learn and decide
// --scope user write, and the memory tool's files.
var UserLayerKinds = []changelog.Kind{changelog.KindLearning, changelog.KindDecision, readmodel.KindMemory}

// FilterKinds are the kinds a search can be narrowed to.
func FilterKinds() []changelog.Kind { return readmodel.FilterKinds() }

// StaleList is the line naming every code file a record cites that moved
// on since it was written; "" when none did.
func StaleList(notes []string) string { return readmodel.StaleList(notes) }

// ParseLines reads a line range, A-B or A.
func ParseLines(s string) (from, to int, ok bool) { return readmodel.ParseLines(s) }

// SearchInput is a search as a front end received it: planq search's
// flags, planq_search's arguments.
type SearchInput struct {
	// Phrasings are the question's phrasings, each ranked, then fused.
	Phrasings []string
	// Kinds, Types, Domains and WrittenBy (agents' names) narrow the
	// search; AllVersions finds the versions a later one superseded too.
	Kinds, Types, Domains, WrittenBy []string
	AllVersions                      bool
	// Limit caps the hits (0: DefaultSearchLimit); Explain asks how each
	// came by its place.
	Limit   int
	Explain bool
	// Scope is where to search; "" is ScopeProject.
	Scope Scope
	// Agent names whose view a search of this project takes (whose branch
	// scope agent reads, whose uses are noted): the agent named, else the
	// one mounted, else the team's.
	Agent string
	// Since keeps the records written since a date or an age
	// (readmodel.ParseSince).
	Since string
	// AsOf, when set, searches this project's memory as it was then (a
	// date or a commit); nothing is counted as used.
	AsOf string
	// Full reads each hit's whole record too (Found.Texts).
	Full bool
}

// query is the read model's query the input asks, its domains checked and
// its Since read: one check for a search of the project and one across
// projects.
func (in SearchInput) query() (readmodel.Query, error) {
	q := readmodel.Query{Phrasings: in.Phrasings, Limit: in.Limit, Explain: in.Explain, Filters: search.Filters{
		Domains: in.Domains, Agents: in.WrittenBy, AllVersions: in.AllVersions}}
	for _, k := range in.Kinds {
		q.Kinds = append(q.Kinds, changelog.Kind(k))
	}
	for _, t := range in.Types {
		q.Types = append(q.Types, changelog.Type(t))
	}
	for _, d := range q.Domains {
		if err := project.ValidateName("domain", d); err != nil {
			return q, err
		}
	}
	var err error
	q.Since, err = readmodel.ParseSince(in.Since, time.Now())
	return q, err
}

// Found is what a search found.
type Found struct {
	// Results are the hits of a search of this project (scopes agent,
	// global and project).
	readmodel.Results
	// AsOf is the moment searched, when the input named one; it is set
	// even when the search then failed.
	AsOf AsOf
	// Texts are the hits' whole records, in order, when the input was Full.
	Texts []string
	// Unnoted says why the uses of the hits could not be noted: a read
	// never fails for that, as uses only keep records fresh.
	Unnoted error
	// VectorWarning says why this project's records were matched by their
	// words alone (its model failed); nil when they were not.
	VectorWarning error
	// Across is what a search beyond this project found (scopes user and
	// all), each hit labelled by its repository; nil for the others.
	Across *FoundAll
}

// Search finds the records that match, best first, where in.Scope says:
// a branch of this project, every branch of it, the user layer, or every
// project that did not opt out and the user layer. Each hit is marked
// stale where the code it cites moved on, and the searching agent's uses
// are noted.
func (s *Project) Search(ctx context.Context, in SearchInput) (Found, error) {
	scope, err := ParseScope(string(in.Scope), ScopeProject)
	if err != nil {
		return Found{}, err
	}
	if scope == ScopeUser || scope == ScopeAll {
		in.Scope = scope
		all, err := s.searchAcross(ctx, in)
		return Found{Across: &all, VectorWarning: all.vectorWarning}, err
	}
	in.Scope = scope
	return s.searchProject(ctx, in)
}

// searchProject is Search of this project's branches.
func (s *Project) searchProject(ctx context.Context, in SearchInput) (Found, error) {
	var found Found
	h, err := s.handle(ctx)
	if err != nil {
		return found, err
	}
	q, err := in.query()
	if err != nil {
		return found, err
	}
	if in.AsOf != "" {
		if found.AsOf, err = h.Records.PinAsOf(ctx, in.AsOf); err != nil {
			return found, err
		}
	}
	// Who searches is asked once, and only when needed: for scope agent,
	// to note uses, or to check the agent named is one.
	who := once(func() (readmodel.Ref, error) { return s.reader(ctx, in.Agent) })
	if in.Agent != "" {
		if _, err := who(); err != nil {
			return found, err
		}
	}
	if q.Branch, err = scopeBranch(h, in); err != nil {
		return found, err
	}
	if found.Results, err = h.Records.SearchContext(ctx, q); err != nil {
		return found, err
	}
	found.VectorWarning = h.Records.VectorWarning()
	readmodel.MarkStale(ctx, h.Project.Root, found.Hits)
	if r, err := who(); in.AsOf == "" && err == nil && r.Dir != "" {
		ids := make([]string, len(found.Hits))
		for i, hit := range found.Hits {
			ids[i] = hit.ID
		}
		found.Unnoted = h.NoteUses(r, ids)
	}
	if in.Full {
		found.Texts, err = wholeTexts(h, found.Hits)
	}
	return found, err
}

// scopeBranch is the branch a search of this project in in.Scope reads:
// global's, the agent's, or "" for every branch.
func scopeBranch(h *readmodel.Handle, in SearchInput) (string, error) {
	switch in.Scope {
	case ScopeGlobal:
		return project.GlobalBranch, nil
	case ScopeAgent:
		r, err := h.Resolve(in.Agent) // the team's is no agent's branch
		return r.Branch, err
	case ScopeProject, ScopeUser, ScopeAll: // every branch of the repository searched
	}
	return "", nil
}

// wholeTexts are the hits' whole records, each read from its branch.
func wholeTexts(h *readmodel.Handle, hits []Hit) ([]string, error) {
	var texts []string
	for _, hit := range hits {
		var branches []string
		if b := hit.Branch(); b != "" {
			branches = append(branches, b)
		}
		ex, err := h.Records.Get(hit.Path, 1, 1<<30, branches...)
		if err != nil {
			return texts, err
		}
		texts = append(texts, ex.Text)
	}
	return texts, nil
}

// once is reader asked at most once.
func once(reader func() (readmodel.Ref, error)) func() (readmodel.Ref, error) {
	var (
		asked bool
		r     readmodel.Ref
		err   error
	)
	return func() (readmodel.Ref, error) {
		if !asked {
			asked = true
			r, err = reader()
		}
		return r, err
	}
}

// GetInput is a read of one file as a front end received it.
type GetInput struct {
	// Ref names the file: a path as search and log show it, with lines
	// (learnings/auth/pq-3f9a1c2e4b.md:5-9) or without, or a record's ID.
	Ref string
	// From and To, when above 0, are the first and last lines to read,
	// over what Ref names.
	From, To int
	// Agent names whose branch is read first: the agent named, else the
	// one mounted, else the team's.
	Agent string
}

// Got is the excerpt a get read, and where the record stands.
type Got struct {
	readmodel.Excerpt
	// SupersededBy names the version that replaced the record, or, when
	// Retracted, the retraction; "" for a current record and for a file
	// that is no record (scratch.md, a branch context).
	SupersededBy string
	Retracted    bool
	// Newer is the path of the version that replaced it (not retracted).
	Newer string
	// Unnoted says why the use could not be noted (see Found.Unnoted).
	Unnoted error
}

// Get reads lines of one file of the state repository as the reader sees
// it: a record from global when global has it, anything else from the
// reader's branch first, then global's, then every other agent's. It marks
// the excerpt stale where the code the record cites moved on, notes the
// use, and says whether a later version superseded the record or
// retracted it.
func (s *Project) Get(ctx context.Context, in GetInput) (Got, error) {
	h, err := s.handle(ctx)
	if err != nil {
		return Got{}, err
	}
	reader, err := s.reader(ctx, in.Agent)
	if err != nil {
		return Got{}, err
	}
	path, from, to, err := h.Records.Locate(in.Ref)
	if err != nil {
		return Got{}, err
	}
	if in.From > 0 {
		from = in.From
	}
	if in.To > 0 {
		to = in.To
	}
	var first []string
	if reader.Branch != "" {
		first = []string{reader.Branch}
	}
	var got Got
	if got.Excerpt, err = h.Records.Get(path, from, to, first...); err != nil {
		return Got{}, err
	}
	if reader.Dir != "" {
		got.Unnoted = h.NoteUse(reader, got.Path)
	}
	h.Records.MarkExcerpt(ctx, h.Project.Root, &got.Excerpt)
	id := changelog.IDOfPath(got.Path)
	if id == "" {
		return got, nil
	}
	versions, err := h.Records.History(id, false)
	if err != nil {
		return Got{}, err
	}
	got.SupersededBy, got.Retracted = versions[0].SupersededBy, versions[0].Retracted
	if got.SupersededBy != "" && !got.Retracted {
		if got.Newer, err = h.Records.PathOf(got.SupersededBy); err != nil {
			return Got{}, err
		}
	}
	return got, nil
}

// Formats are the formats a query and prime render in.
var Formats = prime.Formats

// QueryInput asks for the team's learnings of some domains, or of all.
type QueryInput struct {
	Domains         []string
	Types           []changelog.Type
	Classifications []changelog.Classification
	// All asks for every domain; without it, Domains must name some.
	All bool
	// AllVersions keeps superseded versions too (retracted ones never).
	AllVersions bool
	// Since keeps the learnings written since a date or an age
	// (readmodel.ParseSince).
	Since string
	// AsOf, when set, reads the memory as it was then (see SearchInput).
	AsOf string
	// Format is what Expertise.Text is rendered in (Formats; ""
	// is markdown).
	Format string
	// Agent, when set, must name an agent (the MCP tools' agent): a query
	// reads every branch alike.
	Agent string
}

// Expertise is what a query found: the learnings, ranked for reading, and
// which of them may be stale.
type Expertise struct {
	Learnings []*changelog.Record
	// Text is the learnings rendered in the input's format.
	Text string
	// Domains are the domains there are; Problems, the files that did not read.
	Domains  []string
	Problems []string
	// Unnamed says the input named no domain and did not ask for all:
	// only Domains was read, for the front end to offer them.
	Unnamed bool
	// AsOf is the moment read, when the input named one (see Found.AsOf).
	AsOf AsOf
}

// Query reads the team's learnings of the domains asked for (current
// versions from global and every agent branch, ranked as prime ranks them),
// checks which cite code that moved on, and renders them.
func (s *Project) Query(ctx context.Context, in QueryInput) (Expertise, error) {
	var ex Expertise
	format := in.Format
	if format == "" {
		format = "markdown"
	}
	if err := prime.CheckFormat(format); err != nil {
		return ex, err
	}
	h, err := s.handle(ctx)
	if err != nil {
		return ex, err
	}
	if in.Agent != "" {
		if _, err := s.reader(ctx, in.Agent); err != nil {
			return ex, err
		}
	}
	for _, d := range in.Domains {
		if err := project.ValidateName("domain", d); err != nil {
			return ex, err
		}
	}
	f := readmodel.LearningFilter{Domains: in.Domains, Types: in.Types, Classifications: in.Classifications, AllVersions: in.AllVersions}
	if f.Since, err = readmodel.ParseSince(in.Since, time.Now()); err != nil {
		return ex, err
	}
	if in.AsOf != "" {
		if ex.AsOf, err = h.Records.PinAsOf(ctx, in.AsOf); err != nil {
			return ex, err
		}
	}
	if ex.Learnings, ex.Domains, ex.Problems, err = h.Records.Learnings(f); err != nil {
		return ex, err
	}
	if len(f.Domains) == 0 && !in.All {
		return Expertise{Domains: ex.Domains, Unnamed: true, AsOf: ex.AsOf}, nil
	}
	stale := readmodel.CheckAnchors(ctx, h.Project.Root, ex.Learnings)
	ex.Text, err = prime.Expertise(h.Project.Config.Project, ex.Learnings, format, stale)
	return ex, err
}
