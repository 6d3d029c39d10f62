package readmodel

import (
	"context"
	"slices"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/staterepo"
)

// Article is one of global's knowledge articles as the read model holds
// it: what an index shows of it, and its body.
type Article struct {
	Path        string               `json:"path"`
	Topic       string               `json:"topic"`
	Slug        string               `json:"slug"`
	Title       string               `json:"title"`
	Description string               `json:"description"`
	Tags        []string             `json:"tags,omitempty"`
	Status      changelog.Status     `json:"status"`
	Confidence  changelog.Confidence `json:"confidence"`
	Updated     time.Time            `json:"updated"`
	Body        string               `json:"body"`
}

// Articles lists global's articles (at the moment the reader is pinned
// to, when it is), by path, and the files of the knowledge base that did
// not read. They come from the read model's index of the knowledge base,
// built once per tree of knowledge/ and kept in the cache: a session start
// reads them without git.
func (rd *Reader) Articles() ([]Article, []string, error) {
	set, err := rd.e.GlobalArticles()
	if err != nil {
		return nil, nil, err
	}
	out := make([]Article, len(set.List))
	for i, f := range set.List {
		a := f.Article
		out[i] = Article{Path: f.Path, Topic: a.Topic, Slug: a.Slug, Title: a.Title, Description: a.Description, Tags: a.Tags,
			Status: a.Status, Confidence: a.Confidence, Updated: a.Updated, Body: a.Body}
	}
	return out, Set{Problems: set.Problems}.ProblemLines(), nil
}

// ArticleFile is one article of a commit's knowledge base as the read
// model keeps it: the file as git holds it, and what it parses to.
type ArticleFile struct {
	Text    []byte
	Article *changelog.Article
}

// ArticleFiles are the articles of commit's knowledge base by blob, from
// the read model's cache of them (built once per tree of knowledge/): a
// writer that reads every article at each run, the knowledge base's
// update, need not read and parse them again. The cache keeps what an
// article says, not the keys of other tools its frontmatter may hold: a
// caller that renders an article again parses it itself. Each article is
// a copy the caller may change.
func (rd *Reader) ArticleFiles(commit staterepo.Hash) (map[staterepo.Hash]ArticleFile, error) {
	set, err := rd.e.ArticlesAt(commit)
	if err != nil {
		return nil, err
	}
	out := make(map[staterepo.Hash]ArticleFile, len(set.List))
	for _, f := range set.List {
		a := *f.Article
		a.Tags, a.Sources = slices.Clone(a.Tags), slices.Clone(a.Sources)
		out[f.Blob] = ArticleFile{Text: slices.Clone(f.Text), Article: &a}
	}
	return out, nil
}

// ArticlesForTask is what a session start shows of the knowledge base for
// the agent's task: the best limit of global's articles, fusing two
// rankings by their reciprocal ranks, as search fuses its channels, ties to the
// first: RelevantArticles' (the articles' own words, as planq search
// --kind article finds them), and the task's records, records, best first
// (what Relevant found, by every channel search has, meaning too), each
// counting for every article that cites it: an article that gathers the
// records answering the task answers it as well, though it says so in
// words of its own. Deprecated articles are not found.
func (rd *Reader) ArticlesForTask(ctx context.Context, task []string, records []Hit, limit int) ([]Hit, error) {
	found, err := rd.RelevantArticles(ctx, task, limit)
	if err != nil || len(records) == 0 || limit <= 0 {
		return found, err
	}
	set, err := rd.e.GlobalArticles()
	if err != nil {
		return nil, err
	}
	rankOf := map[string]int{}
	for i, h := range records {
		if _, ok := rankOf[h.ID]; h.ID != "" && !ok {
			rankOf[h.ID] = i
		}
	}
	fused := &fusion{score: map[string]float64{}, hits: map[string]Hit{}}
	for i, h := range found {
		fused.add(h, 1/float64(articleRRFK+i+1))
	}
	// Each of the task's records an article cites counts for it as it
	// ranked: the article that gathers several of them gathers the answer.
	for _, f := range set.List {
		if f.Status == changelog.StatusDeprecated {
			continue
		}
		if s := citedScore(f.Sources, rankOf); s > 0 {
			fused.add(Hit{Path: f.Path, Kind: changelog.KindArticle, Time: f.Updated, Status: f.Status, Title: f.Title}, s)
		}
	}
	return fused.best(limit), nil
}

// citedScore is what the records of sources add to an article that cites
// them: each its reciprocal rank among the task's records.
func citedScore(sources []string, rankOf map[string]int) float64 {
	s := 0.0
	for _, id := range sources {
		if r, ok := rankOf[id]; ok {
			s += 1 / float64(articleRRFK+r+1)
		}
	}
	return s
}

// fusion sums the scores of hits by path, in the order first met.
type fusion struct {
	score map[string]float64
	hits  map[string]Hit
	order []string
}

func (f *fusion) add(h Hit, s float64) {
	if _, ok := f.hits[h.Path]; !ok {
		f.hits[h.Path] = h
		f.order = append(f.order, h.Path)
	}
	f.score[h.Path] += s
}

// best is the limit hits of the highest scores, ties to the first met.
func (f *fusion) best(limit int) []Hit {
	slices.SortStableFunc(f.order, func(a, b string) int {
		switch sa, sb := f.score[a], f.score[b]; {
		case sa > sb:
			return -1
		case sa < sb:
			return 1
		}
		return 0
	})
	out := make([]Hit, 0, min(limit, len(f.order)))
	for _, p := range f.order[:min(limit, len(f.order))] {
		out = append(out, f.hits[p])
	}
	return out
}

// articleRRFK is the constant of ArticlesForTask's fusion: search's own
// reciprocal rank fusion constant, so that two rankings weigh alike here
// and there.
const articleRRFK = 20
