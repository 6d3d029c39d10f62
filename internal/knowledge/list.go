package knowledge

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/readmodel"
)

// Entry is one article as a listing shows it.
type Entry struct {
	Path        string               `json:"path"`
	Slug        string               `json:"slug"`
	Topic       string               `json:"topic"`
	Title       string               `json:"title"`
	Description string               `json:"description"`
	Status      changelog.Status     `json:"status"`
	Confidence  changelog.Confidence `json:"confidence"`
	CuratedBy   changelog.CuratedBy  `json:"curated_by"`
	Updated     time.Time            `json:"updated"`
	Sources     int                  `json:"sources"`
	// EditedByPerson: a person wrote a version of it, so planq only
	// appends to it.
	EditedByPerson bool `json:"edited_by_person"`
	// Decided is when a decision's article was made, the day its decision
	// was taken; Supersedes counts the earlier versions it names as
	// superseded. Both only under the decisions topic.
	Decided    *time.Time `json:"decided,omitempty"`
	Supersedes int        `json:"supersedes,omitempty"`
}

// List lists the articles on global, by topic (the project's topics
// first, in their order) then slug, and the files of the knowledge base it
// could not read.
func List(ctx context.Context, h *readmodel.Handle, opts Options) ([]Entry, []Problem, error) {
	topics, err := opts.topics()
	if err != nil {
		return nil, nil, err
	}
	st, err := h.KnowledgeBase(ctx)
	if err != nil {
		return nil, nil, err
	}
	out := make([]Entry, 0, len(st.Articles))
	for _, h := range st.Articles {
		a := h.Article
		e := Entry{Path: h.Path, Slug: a.Slug, Topic: a.Topic, Title: a.Title, Description: a.Description,
			Status: a.Status, Confidence: a.Confidence, CuratedBy: a.CuratedBy, Updated: a.Updated, Sources: len(a.Sources),
			EditedByPerson: h.Person}
		if a.Topic == decisionsTopic {
			decided := a.Created
			e.Decided, e.Supersedes = &decided, supersededCount(a.Body)
		}
		out = append(out, e)
	}
	rank := func(t string) int {
		if i := slices.Index(topics, t); i >= 0 {
			return i
		}
		return len(topics)
	}
	slices.SortFunc(out, func(x, y Entry) int {
		if d := rank(x.Topic) - rank(y.Topic); d != 0 {
			return d
		}
		if c := strings.Compare(x.Topic, y.Topic); c != 0 {
			return c
		}
		return strings.Compare(x.Slug, y.Slug)
	})
	return out, st.Problems, nil
}
