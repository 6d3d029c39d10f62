package readmodel

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/embed"
	"github.com/planq-dev/planq/internal/plural"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel/internal/engine"
	"github.com/planq-dev/planq/search"
	"github.com/planq-dev/planq/staterepo"
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
	// Filters narrow the search; no kind searches every kind the kind
	// table marks as searched.
	search.Filters
	// Branch, when set, searches that branch alone (an agent's, or
	// global); by default global and every agent branch.
	Branch string
	// Limit caps the hits returned (default 8, at most 50).
	Limit int
	// Explain asks for each hit's places in the rankings that fused
	// (Hit.Explain) and for the vector channel's status (Results.Explain).
	Explain bool
	// VectorOnly ranks by meaning alone (see search.Query): for measuring.
	VectorOnly bool
	// hidden are kinds searched and counted like the others, so that the
	// ranking is planq search's, but never returned.
	hidden []changelog.Kind
	// noSnippets leaves the hits' lines out, for a caller that reads only
	// which documents were found (prime's articles): finding the best
	// lines of a long article costs more than the search itself.
	noSnippets bool
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
	// Score is BM25F for one phrasing ranked by its words alone, else the
	// fused score of the rankings, the words' and the meaning's of each
	// phrasing (reciprocal rank and how far a hit stands out; see package
	// search).
	Score   float64 `json:"score"`
	From    int     `json:"from"`
	To      int     `json:"to"`
	Snippet string  `json:"snippet"`
	// Stale says which of the code files the record cites moved on since
	// (MarkStale), when any did.
	Stale []string `json:"stale,omitempty"`
	// SupersedesRing marks the one version search shows of versions that
	// supersede each other in a ring (see rings.go).
	SupersedesRing bool `json:"supersedes_ring,omitempty"`
	// Explain is how the hit came by its place, when the query asked.
	Explain *HitExplain `json:"explain,omitempty"`
	// record is what the hit shows, for MarkStale's check of its anchors.
	record *changelog.Record
}

// Results are the hits of a search, best first.
type Results struct {
	Query     string   `json:"query"`
	Phrasings []string `json:"phrasings,omitempty"`
	// Total counts every record that matched, beyond the hits returned.
	Total    int      `json:"total"`
	Hits     []Hit    `json:"hits"`
	Problems []string `json:"problems,omitempty"`
	// Vector is whether the records' meaning was searched as well as their
	// words; in JSON under explain, when the query asked.
	Vector  VectorStatus `json:"-"`
	Explain *Explained   `json:"explain,omitempty"`
}

// Explained is what an explained search says of the whole: how its
// meaning was searched.
type Explained struct {
	Vector VectorStatus `json:"vector"`
}

// HitExplain is how a hit came by its place: its score (fused from the
// places, or the one ranking's), and its place in each ranking that held
// it.
type HitExplain struct {
	Score  float64 `json:"score"`
	Places []Place `json:"places"`
}

// Place is a hit's place in one ranking: of which phrasing (1 for the
// first) by which channel (lexical: BM25F over its words; vector: the
// cosine similarity of its embedding), its rank there and the channel's
// score, and what it added to the fused score: its reciprocal rank and how
// far it stood out from the ranking's background (0 when nothing was
// fused).
type Place struct {
	Phrasing int     `json:"phrasing"`
	Channel  string  `json:"channel"`
	Rank     int     `json:"rank"`
	Score    float64 `json:"score"`
	RRF      float64 `json:"rrf"`
	Standout float64 `json:"standout"`
}

// Search finds the current records that match q, ranked by package
// search; see SearchContext.
func (rd *Reader) Search(q Query) (Results, error) { return rd.SearchContext(context.Background(), q) }

// SearchContext finds the current records that match q, ranked by
// package search: by their words and, when the reader has an embedding
// model (UseModel) that opens, by their meaning. A model that fails leaves
// the search to words alone: Results.Vector says so.
func (rd *Reader) SearchContext(ctx context.Context, q Query) (Results, error) {
	phrasings := q.phrasings()
	if err := checkPhrasings(phrasings); err != nil {
		return Results{}, err
	}
	kinds, memories, err := q.searchKinds()
	if err != nil {
		return Results{}, err
	}
	tips, err := rd.searchTips(q.Branch)
	if err != nil {
		return Results{}, err
	}
	filters := q.Filters
	filters.Kinds = nil // read by kind already
	sq := search.Query{Phrasings: phrasings, Filters: filters, Limit: searchLimit(q.Limit), Explain: q.Explain, VectorOnly: q.VectorOnly}
	got := rd.startModel(ctx) // the model loads while the search reads its segments
	var mems []engine.MemorySource
	if memories {
		if mems, err = rd.memorySources(q.Branch); err != nil {
			return Results{}, err
		}
	}
	found, err := rd.e.SearchWithMemories(ctx, tips, kinds, q.hidden, mems, sq, func() embed.Model { return got().model })
	if err != nil {
		return Results{}, err
	}
	vector := got().status
	switch {
	case found.VectorOff != nil:
		vector = offStatus(found.VectorOff)
	case got().model != nil && !found.Vector:
		vector = VectorStatus{Off: "the model knows none of the query's words"}
	}
	rd.noteVector(vector, found.VectorOff)
	if len(found.Terms) == 0 {
		return Results{}, planqerr.New(planqerr.Invalid, "query", "has no word to look for (only words too common to tell records apart)").
			WithHint("name the thing itself: a command, a file, an error message")
	}
	res := Results{Query: phrasings[0], Phrasings: phrasings, Total: found.Total, Hits: []Hit{},
		Problems: Set{Problems: found.Problems}.ProblemLines(), Vector: vector}
	if q.Explain {
		res.Explain = &Explained{Vector: vector}
	}
	if len(phrasings) == 1 {
		res.Phrasings = nil
	}
	for _, h := range found.Hits {
		res.Hits = append(res.Hits, hitOf(h, found.Terms, !q.noSnippets))
	}
	return res, nil
}

// checkPhrasings refuses a query without a phrasing, or with one too long.
func checkPhrasings(phrasings []string) error {
	if len(phrasings) == 0 {
		return planqerr.New(planqerr.Invalid, "query", "is empty").
			WithHint("say what you are looking for: planq search WORDS (two or three phrasings, each quoted, over MCP query and queries)")
	}
	for _, p := range phrasings {
		if len(p) > maxQuery {
			return planqerr.New(planqerr.Invalid, "query", "is %d bytes; at most %d", len(p), maxQuery).
				WithHint("ask in a sentence or a few words, like: token refresh")
		}
	}
	return nil
}

// searchLimit is how many hits a search returns when asked for limit.
func searchLimit(limit int) int {
	if limit <= 0 {
		limit = DefaultSearchLimit
	}
	return min(limit, MaxSearchLimit)
}

// searchKinds is the kinds q searches (by default every searched kind;
// articles only on global), and whether it searches memories too.
func (q Query) searchKinds() ([]changelog.Kind, bool, error) {
	kinds := SearchedKinds()
	asked, memories := memoryKinds(q.Kinds)
	if len(asked) > 0 {
		for _, k := range asked {
			if k.Spec() == nil {
				return nil, false, planqerr.New(planqerr.Invalid, "kind", "unknown kind %q", k).
					WithHint("use one of %s", changelog.Join(changelog.Kinds, ", "))
			}
		}
		kinds = asked
	} else if len(q.Kinds) > 0 {
		kinds = nil // memories alone
	}
	if q.Branch != "" && q.Branch != project.GlobalBranch {
		// Articles are global's alone.
		kinds = slices.DeleteFunc(slices.Clone(kinds), func(k changelog.Kind) bool { return k == changelog.KindArticle })
	}
	if err := checkTypes(q.Types, kinds); err != nil {
		return nil, false, err
	}
	return kinds, memories, nil
}

// searchTips is the tip of branch, or with none, of global and every
// agent branch.
func (rd *Reader) searchTips(branch string) ([]staterepo.Hash, error) {
	if branch == "" {
		return rd.e.Tips()
	}
	tip, err := rd.e.Tip(branch)
	if err != nil {
		return nil, err
	}
	return []staterepo.Hash{tip}, nil
}

// openedModel is the reader's search model, and its status.
type openedModel struct {
	model  embed.Model
	status VectorStatus
}

// startModel starts loading the reader's search model; what it returns
// waits for it.
func (rd *Reader) startModel(ctx context.Context) func() openedModel {
	loading := make(chan openedModel, 1)
	go func() {
		m, st := rd.searchModel(ctx)
		loading <- openedModel{m, st}
	}()
	return sync.OnceValue(func() openedModel { return <-loading })
}

// hitOf is the hit h shows, with the lines around the best match of terms.
func hitOf(h engine.FoundHit, terms []string, withSnippet bool) Hit {
	var from, to int
	var snippet string
	if withSnippet {
		from, to, snippet = search.Snippet(string(h.Text), terms, maxSnippet)
	}
	if a := h.Article; a != nil {
		return Hit{Path: a.Path, Kind: changelog.KindArticle, Time: a.Updated, Status: a.Status,
			Title: a.Title, Score: h.Score, From: from, To: to, Snippet: snippet, Explain: hitExplain(h.Explain)}
	}
	if m := h.Memory; m != nil {
		return Hit{Path: m.Path, Kind: KindMemory, Agent: h.MemoryAgent, Title: m.Title, Score: h.Score,
			From: from, To: to, Snippet: snippet, Explain: hitExplain(h.Explain)}
	}
	r := h.Record
	return Hit{Path: r.Path, ID: r.ID, Kind: r.Kind, Agent: r.Agent, Time: r.Timestamp,
		Status: r.Status, Title: r.Headline(), Score: h.Score, From: from, To: to, Snippet: snippet,
		SupersedesRing: h.InRing, Explain: hitExplain(h.Explain), record: r}
}

// SearchedKinds are the kinds a search looks through when it names none:
// the record kinds the kind table marks as searched, and the documents
// (articles, found on global).
func SearchedKinds() []changelog.Kind {
	return changelog.KindsWhere(func(s *changelog.Spec) bool { return s.Searched || s.Document })
}

// FilterKinds are the kinds a search may be narrowed to: every record
// kind, then the documents.
func FilterKinds() []changelog.Kind {
	return append(slices.Clone(changelog.Kinds), changelog.KindsWhere(func(s *changelog.Spec) bool { return s.Document })...)
}

// hitExplain is an explanation as front ends show it.
func hitExplain(e *search.Explanation) *HitExplain {
	if e == nil {
		return nil
	}
	out := &HitExplain{Score: e.Score, Places: []Place{}}
	for _, p := range e.Places {
		out.Places = append(out.Places, Place{Phrasing: p.Phrasing + 1, Channel: p.Channel.String(), Rank: p.Rank,
			Score: p.Score, RRF: p.RRF, Standout: p.Standout})
	}
	return out
}

// Relevant is what a session start shows of the agent's task: the best
// limit records for what it says of the task (its focus, branch context,
// handoff), found by Search as planq search finds them, one phrasing each.
// Handoffs are left out: the one to pick up is shown on its own, and the
// others are done with. They are left out of what is shown, not of what is
// searched, so the others rank as planq search ranks them. Text with no
// word to look for finds nothing, and is no error.
func (rd *Reader) Relevant(task []string, limit int) ([]Hit, error) {
	return rd.RelevantContext(context.Background(), task, limit)
}

// RelevantContext is Relevant, embedding by the reader's model (see
// SearchContext) under ctx.
func (rd *Reader) RelevantContext(ctx context.Context, task []string, limit int) ([]Hit, error) {
	phrasings := taskPhrasings(task)
	if len(phrasings) == 0 {
		return nil, nil
	}
	records := changelog.KindsWhere(func(s *changelog.Spec) bool { return s.Searched })
	return rd.relevant(ctx, Query{Phrasings: phrasings, Limit: limit, Filters: search.Filters{Kinds: records}, hidden: []changelog.Kind{changelog.KindHandoff}})
}

// RelevantArticles is what a session start shows of the knowledge base
// for the agent's task: the best limit of global's articles for what it
// says of the task, found by Search as planq search --kind article finds
// them, without their lines (a session start lists the articles by
// title). Deprecated articles are not found.
func (rd *Reader) RelevantArticles(ctx context.Context, task []string, limit int) ([]Hit, error) {
	phrasings := taskPhrasings(task)
	if len(phrasings) == 0 {
		return nil, nil
	}
	return rd.relevant(ctx, Query{Phrasings: phrasings, Limit: limit, Branch: project.GlobalBranch,
		Filters: search.Filters{Kinds: []changelog.Kind{changelog.KindArticle}}, noSnippets: true})
}

// relevant is a search of the task, in which text with no word to look
// for finds nothing and is no error.
func (rd *Reader) relevant(ctx context.Context, q Query) ([]Hit, error) {
	res, err := rd.SearchContext(ctx, q)
	if planqerr.Is(err, planqerr.Invalid) {
		return nil, nil
	}
	return res.Hits, err
}

// taskPhrasings are the parts of a task that say something, each cut to
// what a query holds.
func taskPhrasings(task []string) []string {
	var phrasings []string
	for _, t := range task {
		if t = strings.TrimSpace(t); t != "" {
			phrasings = append(phrasings, changelog.Shorten(t, maxQuery/4)) // any rune fits in 4 bytes
		}
	}
	return phrasings
}

// checkTypes refuses a type no kind searched has: it would find nothing,
// and the person most likely misspelt it.
func checkTypes(types []changelog.Type, kinds []changelog.Kind) error {
	var known []changelog.Type
	for _, k := range kinds {
		known = append(known, k.Spec().Types...)
	}
	slices.Sort(known)
	known = slices.Compact(known)
	for _, t := range types {
		if !slices.Contains(known, t) {
			return planqerr.New(planqerr.Invalid, "type", "unknown type %q", t).
				WithHint("use one of %s", changelog.Join(known, ", "))
		}
	}
	return nil
}

// Header is a hit's first line, as every front end shows it: where it is
// (path and lines, for get), what it is, who wrote it when, and its status
// when that is news (disputed, say).
func (h Hit) Header() string {
	if h.Kind == changelog.KindArticle {
		s := fmt.Sprintf("%s:%d-%d  article: %s, updated %s", h.Path, h.From, h.To, h.Title, h.Time.UTC().Format("2006-01-02"))
		if h.Status != "" && h.Status != changelog.StatusCurrent {
			s += "  [" + string(h.Status) + "]"
		}
		return s
	}
	if h.Kind == KindMemory {
		where := "global"
		if h.Agent != "" {
			where = "agent " + h.Agent
		}
		return fmt.Sprintf("%s:%d-%d  memory: %s (%s)", h.Path, h.From, h.To, h.Title, where)
	}
	s := fmt.Sprintf("%s:%d-%d  %s by %s, %s", h.Path, h.From, h.To, h.Kind, h.Agent, h.Time.UTC().Format("2006-01-02"))
	if h.Status == changelog.StatusDisputed {
		s += "  [disputed]"
	}
	if h.SupersedesRing {
		s += "  " + changelog.RingMark
	}
	if len(h.Stale) > 0 {
		s += "  " + StaleMark(h.Stale)
	}
	return s
}

// Record is the record the hit shows (nil for a hit made elsewhere).
func (h Hit) Record() *changelog.Record { return h.record }

// MarkStale checks the anchors of the hits' records against the code
// checkout at codeDir (one git call for all; see CheckAnchors) and notes on
// each hit what moved on.
func MarkStale(ctx context.Context, codeDir string, hits []Hit) {
	recs := make([]*changelog.Record, 0, len(hits))
	for _, h := range hits {
		if h.record != nil {
			recs = append(recs, h.record)
		}
	}
	st := CheckAnchors(ctx, codeDir, recs)
	for i := range hits {
		hits[i].Stale = st.Notes[hits[i].ID]
	}
}

// Locate turns what a person or agent names a record by into a path and a
// line range (0 when not given): a path, a path with lines as search shows
// them (learnings/auth/pq-3f9a1c2e4b.md:5-9), or a record ID.
func (rd *Reader) Locate(ref string) (p string, from, to int, err error) {
	ref = strings.TrimSpace(ref)
	if changelog.ValidID(ref) {
		p, err = rd.PathOf(ref)
		return p, 0, 0, err
	}
	if i := strings.LastIndexByte(ref, ':'); i > 0 {
		if from, to, ok := ParseLines(ref[i+1:]); ok {
			return ref[:i], from, to, nil
		}
	}
	return ref, 0, 0, nil
}

// ParseLines reads a line range, A-B or A.
func ParseLines(s string) (from, to int, ok bool) {
	a, b, isRange := strings.Cut(s, "-")
	from, err := strconv.Atoi(a)
	if err != nil || from < 1 {
		return 0, 0, false
	}
	if !isRange {
		return from, from, true
	}
	to, err = strconv.Atoi(b)
	if err != nil || to < from {
		return 0, 0, false
	}
	return from, to, true
}

// PathOf finds the path of the record with id on global or any agent
// branch, from the rows: only a record whose ID hashes alike is decoded.
func (rd *Reader) PathOf(id string) (string, error) {
	tips, err := rd.e.Tips()
	if err != nil {
		return "", err
	}
	segs, _, err := rd.e.Segments(tips, nil)
	if err != nil {
		return "", err
	}
	want := engine.IDHash(id)
	for _, seg := range segs {
		for i := range seg.Len() {
			if seg.RowID(i) != want {
				continue
			}
			r, err := seg.Record(i) // a damaged shard is built again from git
			if err != nil {
				return "", err
			}
			if r.ID == id {
				return r.Path, nil
			}
		}
	}
	return "", planqerr.New(planqerr.NotFound, id, "no record with this id on global or any agent branch").
		WithHint("'planq search WORDS' finds a record's id and path")
}

// Excerpt is lines of one file of the state repository.
type Excerpt struct {
	Path   string `json:"path"`
	Branch string `json:"branch"`
	From   int    `json:"from"`
	To     int    `json:"to"`
	Lines  int    `json:"lines"`
	Text   string `json:"text"`
	// Stale says which code files the record cites moved on (MarkExcerpt).
	Stale []string `json:"stale,omitempty"`
}

// More reports whether the file goes on past the excerpt.
func (e Excerpt) More() bool { return e.To < e.Lines }

// Get reads lines from to to (1-based; 0 for the defaults: from the first
// line, 200 lines on) of the record or note at p, looking where ReadFile
// looks: a record on global first, else on branches first, then global,
// then every other branch.
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
		return Excerpt{}, planqerr.New(planqerr.Invalid, p, "%s has %s; from %d is past the end", p, plural.Of(len(lines), "line"), from).
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
	return changelog.IsRecordPath(p) || IsKnowledgePath(p) || IsMemoryPath(p) || p == project.ScratchFile || p == project.FocusFile || project.IsBranchContextPath(p)
}

// IsKnowledgePath reports whether p is a file of global's knowledge base
// that get reads: an article (knowledge/<topic>/<slug>.md) or the index.
func IsKnowledgePath(p string) bool {
	_, _, ok := changelog.SplitArticlePath(p)
	return ok || p == changelog.KindArticle.Dir()+"/_index.md"
}

func quoted(s string) string { return `"` + s + `"` }
