package readmodel

import (
	"time"

	"github.com/planq-dev/planq/changelog"
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
