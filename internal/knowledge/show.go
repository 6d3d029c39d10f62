package knowledge

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/readmodel"
)

// Shown is one article as a reader reads it: its frontmatter, its body,
// each source with what it is now, and whether a person wrote a version
// of it.
type Shown struct {
	Path string `json:"path"`
	// Blob is the article file's blob: the version 'planq kb edit SLUG
	// --base BLOB -' sends a text edited from.
	Blob        string               `json:"blob"`
	Slug        string               `json:"slug"`
	Topic       string               `json:"topic"`
	Title       string               `json:"title"`
	Description string               `json:"description"`
	Tags        []string             `json:"tags"`
	Created     time.Time            `json:"created"`
	Updated     time.Time            `json:"updated"`
	Confidence  changelog.Confidence `json:"confidence"`
	Status      changelog.Status     `json:"status"`
	CuratedBy   changelog.CuratedBy  `json:"curated_by"`
	// EditedByPerson: a commit without planq's trailer wrote a version of
	// it (read from git history), so planq only appends to it.
	EditedByPerson bool    `json:"edited_by_person"`
	Sources        []Cited `json:"sources"`
	Body           string  `json:"body"`
}

// Cited is one source an article cites, as global holds it now.
type Cited struct {
	// Source is what the article cites: a record ID, commit:<hex> or
	// issue:<ref>.
	Source string `json:"source"`
	// Record: the source is a record ID; Kind, Path and Line are its
	// record's, "" when global does not hold it.
	Record bool           `json:"record"`
	Kind   changelog.Kind `json:"kind,omitempty"`
	Path   string         `json:"path,omitempty"`
	// Line is the record's one-line form.
	Line string `json:"line,omitempty"`
	// Current: the record is a current learning or decision on global.
	// Ended says otherwise what it is: "superseded by <id>", "retracted",
	// "archived" or "not on global"; "" for a current record, a commit or
	// an issue.
	Current bool   `json:"current"`
	Ended   string `json:"ended,omitempty"`
}

// Show reads the article slug on global with its sources: each record's
// one-line form and whether it is current. An article planq cannot read
// is an error that says why, and how to fix it.
func Show(ctx context.Context, h *readmodel.Handle, slug string) (Shown, error) {
	st, rs, err := readWithRecords(ctx, h)
	if err != nil {
		return Shown{}, err
	}
	held, err := find(h.Project.StateRepo(), st, slug)
	if err != nil {
		return Shown{}, err
	}
	return shownOf(held, rs), nil
}

// readWithRecords reads the knowledge base at global's tip, and the
// learnings and decisions global holds there.
func readWithRecords(ctx context.Context, h *readmodel.Handle) (*state, *records, error) {
	st, err := h.KnowledgeBase(ctx)
	if err != nil {
		return nil, nil, err
	}
	set, err := h.Records.Commit(st.Tip, changelog.KindLearning, changelog.KindDecision)
	if err != nil {
		return nil, nil, err
	}
	return st, newRecords(set.Records, set.Current()), nil
}

// find is the article slug of st, or why there is none to read.
func find(repoPath string, st *state, slug string) (*held, error) {
	if err := changelog.ValidateSlug("slug", slug); err != nil {
		return nil, err
	}
	if h := st.Articles[slug]; h != nil {
		return h, nil
	}
	subject := "article " + slug
	if p := st.Broken[slug]; p != "" {
		problem := "does not parse"
		for _, pr := range st.Problems {
			if pr.Path == p {
				problem = pr.Problem
			}
		}
		return nil, planqerr.New(planqerr.Invalid, subject, "%s: %s", p, problem).
			WithHint("fix it with 'planq kb edit %s'", slug)
	}
	if st.Deleted[slug] {
		return nil, deletedError(repoPath, st, slug)
	}
	return nil, planqerr.New(planqerr.NotFound, subject, "is not on global").
		WithHint("'planq kb list' shows the articles and their slugs; 'planq kb search WORDS' finds them")
}

func shownOf(h *held, rs *records) Shown {
	a := h.Article
	out := Shown{Path: h.Path, Blob: h.Blob.String(), Slug: a.Slug, Topic: a.Topic, Title: a.Title, Description: a.Description,
		Tags: a.Tags, Created: a.Created, Updated: a.Updated, Confidence: a.Confidence, Status: a.Status,
		CuratedBy: a.CuratedBy, EditedByPerson: h.Person, Body: a.Body, Sources: make([]Cited, 0, len(a.Sources))}
	if out.Tags == nil {
		out.Tags = []string{}
	}
	for _, s := range a.Sources {
		out.Sources = append(out.Sources, citedOf(s, rs))
	}
	return out
}

// citedOf is what global holds of the source s.
func citedOf(s string, rs *records) Cited {
	src := Cited{Source: s}
	if !changelog.ValidID(s) {
		return src
	}
	src.Record = true
	r := rs.byID[s]
	if r == nil {
		src.Ended = "not on global"
		return src
	}
	src.Kind, src.Path, src.Line = r.Kind, r.Path, r.Line()
	src.Current = rs.live[s]
	if !src.Current {
		src.Ended = rs.endedHow(s)
		if src.Ended == "" {
			src.Ended = "not current"
		}
	}
	return src
}

// Disputed is a disputed article: both sides of its conflict, each with
// the command that keeps it.
type Disputed struct {
	Path        string `json:"path"`
	Slug        string `json:"slug"`
	Title       string `json:"title"`
	Description string `json:"description"`
	// Conflict are the list items of its Conflict section, as written.
	Conflict []string `json:"conflict"`
	// Sides are the sources its Conflict section cites, each as Show
	// gives a source, and the resolve that keeps it.
	Sides []Side `json:"sides"`
}

// Side is one side of an article's conflict.
type Side struct {
	Cited
	// Resolve is the command that settles the conflict by keeping it.
	Resolve string `json:"resolve"`
}

// ListDisputed lists the disputed articles on global, by path, with the
// sides of each conflict.
func ListDisputed(ctx context.Context, h *readmodel.Handle) ([]Disputed, error) {
	st, rs, err := readWithRecords(ctx, h)
	if err != nil {
		return nil, err
	}
	out := []Disputed{}
	for _, slug := range st.Slugs() {
		held := st.Articles[slug]
		a := held.Article
		if a.Status != changelog.StatusDisputed {
			continue
		}
		d := Disputed{Path: held.Path, Slug: slug, Title: a.Title, Description: a.Description, Conflict: sidesOf(a.Body), Sides: []Side{}}
		_, section, _, _ := cutSection(a.Body, conflictHeading)
		for _, s := range sourcesIn(section) {
			d.Sides = append(d.Sides, Side{Cited: citedOf(s, rs), Resolve: "planq kb resolve " + slug + " --keep " + s})
		}
		out = append(out, d)
	}
	slices.SortFunc(out, func(x, y Disputed) int { return strings.Compare(x.Path, y.Path) })
	return out, nil
}

// sourcesIn are the sources a Conflict section names, sorted, each once:
// the sides 'planq kb resolve' may keep.
func sourcesIn(section string) []string {
	var sides []string
	for _, w := range strings.FieldsFunc(section, func(c rune) bool { return strings.ContainsRune(" \t\n()[],;`\"'", c) }) {
		w = strings.TrimRight(w, ".:")
		if changelog.ValidSource(w) && !slices.Contains(sides, w) {
			sides = append(sides, w)
		}
	}
	slices.Sort(sides)
	return sides
}
