package readmodel

import (
	"path"
	"sort"
	"strings"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
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
	Text string
	// Kind limits the search to one kind; empty searches every kind the
	// kind table marks as searched.
	Kind changelog.Kind
	// Limit caps the hits returned (default 8, at most 50).
	Limit int
}

// Hit is one record that matches, with the lines around the best match.
type Hit struct {
	Path    string         `json:"path"`
	ID      string         `json:"id"`
	Kind    changelog.Kind `json:"kind"`
	Agent   string         `json:"agent"`
	Time    time.Time      `json:"time"`
	Score   int            `json:"score"`
	From    int            `json:"from"`
	To      int            `json:"to"`
	Snippet string         `json:"snippet"`
}

// Results are the hits of a search, best first.
type Results struct {
	Query string `json:"query"`
	// Total counts every record that matched, beyond the hits returned.
	Total    int      `json:"total"`
	Hits     []Hit    `json:"hits"`
	Problems []string `json:"problems,omitempty"`
}

// Search finds the current records whose words match q: words in a
// record's title or decision count three times, words elsewhere once (at
// most five times each), ties go to the newer record.
func (rd *Reader) Search(q Query) (Results, error) {
	terms := strings.Fields(strings.ToLower(q.Text))
	if len(terms) == 0 || len(q.Text) > maxQuery {
		return Results{}, planqerr.New(planqerr.Invalid, "query", "must hold 1 to %d characters of words to look for", maxQuery).
			WithHint("name what you are looking for, like: token refresh")
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
	type scored struct {
		r     *changelog.Record
		score int
	}
	var found []scored
	for _, r := range set.Current() {
		title := strings.ToLower(r.Title() + " " + r.Decision)
		text := strings.ToLower(strings.Join([]string{r.Body, r.Domain, r.Rationale, r.Resolution, r.Subject, string(r.Type)}, " "))
		score := 0
		for _, t := range terms {
			score += 3*strings.Count(title, t) + min(strings.Count(text, t), 5)
		}
		if score > 0 {
			found = append(found, scored{r, score})
		}
	}
	sort.SliceStable(found, func(i, j int) bool {
		if found[i].score != found[j].score {
			return found[i].score > found[j].score
		}
		return found[i].r.Timestamp.After(found[j].r.Timestamp)
	})
	res := Results{Query: q.Text, Total: len(found), Hits: []Hit{}, Problems: set.ProblemLines()}
	order, err := rd.lookupOrder() // once, not once a hit
	if err != nil {
		return Results{}, err
	}
	for _, f := range found[:min(limit, len(found))] {
		data, _, err := order.read(rd.repo, f.r.Path)
		if err != nil {
			continue
		}
		from, to, snippet := snippetOf(string(data), terms)
		res.Hits = append(res.Hits, Hit{Path: f.r.Path, ID: f.r.ID, Kind: f.r.Kind, Agent: f.r.Agent, Time: f.r.Timestamp,
			Score: f.score, From: from, To: to, Snippet: snippet})
	}
	return res, nil
}

// snippetOf picks the lines around the best-matching line, at most
// maxSnippet characters, and says which lines they are (1-based).
func snippetOf(text string, terms []string) (int, int, string) {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	best, bestScore := 0, -1
	for i, l := range lines {
		ll := strings.ToLower(l)
		score := 0
		for _, t := range terms {
			score += strings.Count(ll, t)
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	from, to := max(0, best-2), min(len(lines)-1, best+3)
	snippet := strings.Join(lines[from:to+1], "\n")
	for len(snippet) > maxSnippet && to > best {
		to--
		snippet = strings.Join(lines[from:to+1], "\n")
	}
	if len(snippet) > maxSnippet {
		snippet = snippet[:maxSnippet-3] + "..."
	}
	return from + 1, to + 1, snippet
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
