package session

import (
	"context"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
)

// SearchRequest is a search as a front end received it.
type SearchRequest struct {
	// Query holds the phrasings, the filters and the limit; Scope names its
	// Branch, and Since its Filters.Since.
	Query readmodel.Query
	// Scope is agent (the reader's own branch), global, or all ("" is all).
	Scope string
	// Since keeps the records written since a date or an age
	// (readmodel.ParseSince).
	Since string
	// AsOf, when set, searches the memory as it was then (a date or a
	// commit; see readmodel.Reader.PinAsOf); nothing is counted as used.
	AsOf string
	// Full reads each hit's whole record too (Found.Texts).
	Full bool
}

// Found is what a search found.
type Found struct {
	readmodel.Results
	// AsOf is the moment searched, when the request named one; it is set
	// even when the search then failed.
	AsOf readmodel.AsOf
	// Texts are the hits' whole records, in order, when the request was Full.
	Texts []string
	// Unnoted says why the uses of the hits could not be noted: a read
	// never fails for that, as uses only keep records fresh.
	Unnoted error
}

// checkQuery is the query a search request asks, its domains checked and
// its Since read from since (a duration back from now, or a date): one
// check for a search of the project and one across projects.
func checkQuery(q readmodel.Query, since string) (readmodel.Query, error) {
	for _, d := range q.Domains {
		if err := project.ValidateName("domain", d); err != nil {
			return q, err
		}
	}
	t, err := readmodel.ParseSince(since, time.Now())
	if err != nil {
		return q, err
	}
	q.Since = t
	return q, nil
}

// Search finds the records that match the request, best first, as the
// reader sees them: reader is asked (once, and only when needed) who
// searches, for the agent scope and to note that agent's uses. Each hit is
// marked stale where the code it cites moved on.
func Search(ctx context.Context, h *readmodel.Handle, reader func() (readmodel.Ref, error), req SearchRequest) (Found, error) {
	var found Found
	q, err := checkQuery(req.Query, req.Since)
	if err != nil {
		return found, err
	}
	if req.AsOf != "" {
		if found.AsOf, err = h.Records.PinAsOf(ctx, req.AsOf); err != nil {
			return found, err
		}
	}
	who := once(reader)
	if q.Branch, err = readmodel.ScopeBranch(req.Scope, func() (string, error) {
		r, err := who()
		return r.Branch, err
	}); err != nil {
		return found, err
	}
	if found.Results, err = h.Records.SearchContext(ctx, q); err != nil {
		return found, err
	}
	readmodel.MarkStale(ctx, h.Project.Root, found.Hits)
	if req.AsOf == "" {
		if r, err := who(); err == nil && r.Dir != "" {
			ids := make([]string, len(found.Hits))
			for i, hit := range found.Hits {
				ids[i] = hit.ID
			}
			found.Unnoted = h.NoteUses(r, ids)
		}
	}
	if req.Full {
		for _, hit := range found.Hits {
			var branches []string
			if b := hit.Branch(); b != "" {
				branches = append(branches, b)
			}
			ex, err := h.Records.Get(hit.Path, 1, 1<<30, branches...)
			if err != nil {
				return found, err
			}
			found.Texts = append(found.Texts, ex.Text)
		}
	}
	return found, nil
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

// GetRequest is a read of one file as a front end received it.
type GetRequest struct {
	// Ref names the file: a path as search and log show it, with lines
	// (learnings/auth/pq-3f9a1c2e4b.md:5-9) or without, or a record's ID.
	Ref string
	// From and To, when above 0, are the first and last lines to read,
	// over what Ref names.
	From, To int
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

// Get reads lines of one file of the state repository as reader sees it:
// a record from global when global has it, anything else from the reader's
// branch first, then global's, then every other agent's. It marks the
// excerpt stale where the code the record cites moved on, notes the use,
// and says whether a later version superseded the record or retracted it.
func Get(ctx context.Context, h *readmodel.Handle, reader readmodel.Ref, req GetRequest) (Got, error) {
	path, from, to, err := h.Records.Locate(req.Ref)
	if err != nil {
		return Got{}, err
	}
	if req.From > 0 {
		from = req.From
	}
	if req.To > 0 {
		to = req.To
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

// QueryRequest asks for the team's learnings of some domains, or of all.
type QueryRequest struct {
	// Filter keeps the learnings asked for; Since names its Since.
	Filter readmodel.LearningFilter
	// All asks for every domain; without it, Filter must name some.
	All bool
	// Since keeps the learnings written since a date or an age
	// (readmodel.ParseSince).
	Since string
	// AsOf, when set, reads the memory as it was then (see SearchRequest).
	AsOf string
}

// Expertise is what a query found: the learnings, ranked for reading, and
// which of them may be stale.
type Expertise struct {
	Learnings []*changelog.Record
	Stale     readmodel.Staleness
	// Domains are the domains there are; Problems, the files that did not read.
	Domains  []string
	Problems []string
	// Unnamed says the request named no domain and did not ask for all:
	// only Domains was read, for the front end to offer them.
	Unnamed bool
	// AsOf is the moment read, when the request named one (see Found.AsOf).
	AsOf readmodel.AsOf
}

// Query reads the team's learnings of the domains asked for (current
// versions from global and every agent branch, ranked as prime ranks them)
// and checks which cite code that moved on.
func Query(ctx context.Context, h *readmodel.Handle, req QueryRequest) (Expertise, error) {
	var ex Expertise
	for _, d := range req.Filter.Domains {
		if err := project.ValidateName("domain", d); err != nil {
			return ex, err
		}
	}
	f := req.Filter
	since, err := readmodel.ParseSince(req.Since, time.Now())
	if err != nil {
		return ex, err
	}
	f.Since = since
	if req.AsOf != "" {
		if ex.AsOf, err = h.Records.PinAsOf(ctx, req.AsOf); err != nil {
			return ex, err
		}
	}
	if ex.Learnings, ex.Domains, ex.Problems, err = h.Records.Learnings(f); err != nil {
		return ex, err
	}
	if len(f.Domains) == 0 && !req.All {
		return Expertise{Domains: ex.Domains, Unnamed: true, AsOf: ex.AsOf}, nil
	}
	ex.Stale = readmodel.CheckAnchors(ctx, h.Project.Root, ex.Learnings)
	return ex, nil
}
