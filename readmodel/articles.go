package readmodel

import (
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
