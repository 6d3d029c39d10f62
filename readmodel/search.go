package readmodel

import (
	"path"
	"strings"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/search"
)

// Search limits.
const (
	DefaultSearchLimit = 8
	MaxSearchLimit     = 50
	maxQuery           = 1000
	// maxSnippet bounds one result's text.
	maxSnippet = 700
	// DefaultGetLines is how many lines Get returns when no end is given.
	DefaultGetLines = 200
)

// Query is what to search for.
type Query struct {
	// Text is one phrasing; Phrasings are more, each ranked, then fused.
	Text      string
	Phrasings []string
	// Kind limits the search to one kind; empty searches every kind the
	// kind table marks as searched.
	Kind    changelog.Kind
	Domains []string
	Types   []changelog.Type
	Agents  []string
	Since   time.Time
	// AllVersions also finds versions a later one superseded.
	AllVersions bool
	// Limit caps the hits returned (default 8, at most 50).
	Limit int
}

// phrasings are the query's phrasings, Text first.
func (q Query) phrasings() []string {
	var out []string
	for _, p := range append([]string{q.Text}, q.Phrasings...) {
		if strings.TrimSpace(p) != "" {
			out = append(out, p)
		}
	}
	return out
}

// Hit is one record that matches, with the lines around the best match.
type Hit struct {
	Path   string           `json:"path"`
	ID     string           `json:"id"`
	Kind   changelog.Kind   `json:"kind"`
	Agent  string           `json:"agent"`
	Time   time.Time        `json:"time"`
	Status changelog.Status `json:"status,omitempty"`
	Title  string           `json:"title"`
	// Score is BM25F for one phrasing, reciprocal rank fusion for several.
	Score   float64 `json:"score"`
	From    int     `json:"from"`
	To      int     `json:"to"`
	Snippet string  `json:"snippet"`
}

// Results are the hits of a search, best first.
type Results struct {
	Query     string   `json:"query"`
	Phrasings []string `json:"phrasings,omitempty"`
	// Total counts every record that matched, beyond the hits returned.
	Total    int      `json:"total"`
	Hits     []Hit    `json:"hits"`
	Problems []string `json:"problems,omitempty"`
}

// Search finds the current records that match q, ranked by package search.
func (rd *Reader) Search(q Query) (Results, error) {
	phrasings := q.phrasings()
	if len(phrasings) == 0 {
		return Results{}, planqerr.New(planqerr.Invalid, "query", "is empty").
			WithHint("name what you are looking for, like: planq search \"token refresh\" \"JWT expiry\"")
	}
	for _, p := range phrasings {
		if len(p) > maxQuery {
			return Results{}, planqerr.New(planqerr.Invalid, "query", "is %d bytes; at most %d", len(p), maxQuery).
				WithHint("ask in a sentence or a few words, like: token refresh")
		}
	}
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultSearchLimit
	}
	limit = min(limit, MaxSearchLimit)
	kinds := changelog.KindsWhere(func(s *changelog.Spec) bool { return s.Searched })
	if q.Kind != "" {
		if q.Kind.Spec() == nil {
			return Results{}, planqerr.New(planqerr.Invalid, "kind", "unknown kind %q", q.Kind).
				WithHint("use one of %s", changelog.Join(changelog.Kinds, ", "))
		}
		kinds = []changelog.Kind{q.Kind}
	}
	set, err := rd.All(kinds...)
	if err != nil {
		return Results{}, err
	}
	docs := make([]search.Doc, len(set.Records))
	for i, r := range set.Records {
		docs[i] = search.DocOf(r)
	}
	found := search.NewIndex(docs).Search(search.Query{Phrasings: phrasings, Domains: q.Domains, Types: q.Types,
		Agents: q.Agents, Since: q.Since, AllVersions: q.AllVersions, Limit: limit})
	if len(found.Terms) == 0 {
		return Results{}, planqerr.New(planqerr.Invalid, "query", "has no word to look for (only words too common to tell records apart)").
			WithHint("name the thing itself: a command, a file, an error message")
	}
	res := Results{Query: phrasings[0], Phrasings: phrasings, Total: found.Total, Hits: []Hit{}, Problems: set.ProblemLines()}
	if len(phrasings) == 1 {
		res.Phrasings = nil
	}
	order, err := rd.lookupOrder() // once, not once a hit
	if err != nil {
		return Results{}, err
	}
	for _, h := range found.Hits {
		data, _, err := order.read(rd.repo, h.Doc.Path)
		if err != nil {
			continue
		}
		from, to, snippet := search.Snippet(string(data), found.Terms, maxSnippet)
		res.Hits = append(res.Hits, Hit{Path: h.Doc.Path, ID: h.Doc.ID, Kind: h.Doc.Kind, Agent: h.Doc.Agent, Time: h.Doc.Time,
			Status: h.Doc.Status, Title: h.Doc.Title, Score: h.Score, From: from, To: to, Snippet: snippet})
	}
	return res, nil
}

// Excerpt is lines of one file of the state repository.
type Excerpt struct {
	Path   string `json:"path"`
	Branch string `json:"branch"`
	From   int    `json:"from"`
	To     int    `json:"to"`
	Lines  int    `json:"lines"`
	Text   string `json:"text"`
}

// More reports whether the file goes on past the excerpt.
func (e Excerpt) More() bool { return e.To < e.Lines }

// Get reads lines from to to (1-based; 0 for the defaults: from the first
// line, 200 lines on) of the record or note at p, looking on branches first,
// then global, then every other branch.
func (rd *Reader) Get(p string, from, to int, branches ...string) (Excerpt, error) {
	if !AllowedPath(p) {
		return Excerpt{}, planqerr.New(planqerr.Invalid, "path "+quoted(p), "is not a record of the state repository").
			WithHint("give a path as search or log shows it, like learnings/auth/pq-3f9a1c2e4b.md")
	}
	if from < 0 || to < 0 || (to > 0 && from > to) {
		return Excerpt{}, planqerr.New(planqerr.Invalid, p, "lines %d to %d are no range", from, to).
			WithHint("ask for lines from a first line to a last one at or after it, like from 1 to 40")
	}
	data, branch, err := rd.ReadFile(p, branches...)
	if err != nil {
		return Excerpt{}, planqerr.New(planqerr.NotFound, p, "no file %s in the state repository", p).
			WithHint("search for it instead: 'planq search WORDS'")
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	from = max(1, from)
	if to <= 0 {
		to = from + DefaultGetLines - 1
	}
	to = min(to, len(lines))
	if from > to {
		return Excerpt{}, planqerr.New(planqerr.Invalid, p, "%s has %d lines; from %d is past the end", p, len(lines), from).
			WithHint("ask for lines 1 to %d", len(lines))
	}
	return Excerpt{Path: p, Branch: branch, From: from, To: to, Lines: len(lines), Text: strings.Join(lines[from-1:to], "\n")}, nil
}

// AllowedPath admits only clean relative paths to planq's own files: never
// anything outside the state repository, never a git internal.
func AllowedPath(p string) bool {
	if p == "" || len(p) > 300 || path.IsAbs(p) || path.Clean(p) != p || strings.Contains(p, "..") || strings.Contains(p, "\\") {
		return false
	}
	return changelog.IsRecordPath(p) || p == project.ScratchFile || p == project.FocusFile || project.IsBranchContextPath(p)
}

func quoted(s string) string { return `"` + s + `"` }
