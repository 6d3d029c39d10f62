package knowledge

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
)

// ResolveResult is what Resolve did.
type ResolveResult struct {
	Path string `json:"path"`
	// Kept is the source kept; SetAside the sides of the conflict it
	// settled, out of the article's sources now.
	Kept     string   `json:"kept"`
	SetAside []string `json:"set_aside"`
	// Status is the article's status after: current, or disputed while
	// another conflict of its sources stands.
	Status changelog.Status `json:"status"`
	Commit string           `json:"commit"`
}

// Resolve settles the conflict of the disputed article slug by keeping the
// source keep: the sides that contradict it leave the article's sources,
// the Conflict section gives way to a Resolved note naming the kept
// source, the ones set aside and the date, and the article is current
// again (disputed still if another conflict stands), in one commit on
// global with the index regenerated. The note is what later updates read:
// a side set aside never joins the article again. The records themselves
// are not touched.
//
// An article planq writes is made again from its sources with the
// outcome; one a person wrote or edited is changed in those places only:
// its status, its sources, and the Conflict section, whose sources are the
// sides.
func Resolve(ctx context.Context, store *agent.Store, slug, keep string, opts Options) (ResolveResult, error) {
	var res ResolveResult
	topics, err := opts.topics()
	if err != nil {
		return res, err
	}
	repo := store.Repo
	st, err := forSlug(ctx, repo, slug)
	if err != nil {
		return res, err
	}
	h := st.Articles[slug]
	if h == nil {
		switch {
		case st.Broken[slug] != "":
			return res, planqerr.New(planqerr.Invalid, "article "+slug, "%s does not parse", st.Broken[slug]).
				WithHint("'planq kb update' names what is wrong with it")
		case st.Deleted[slug]:
			return res, planqerr.New(planqerr.NotFound, "article "+slug, "was deleted")
		}
		return res, planqerr.New(planqerr.NotFound, "article "+slug, "is not on global").
			WithHint("'planq kb list' shows the articles and their slugs")
	}
	if h.Article.Status != changelog.StatusDisputed {
		return res, planqerr.New(planqerr.Invalid, "article "+slug, "is %s, not disputed: there is nothing to resolve", h.Article.Status).
			WithHint("'planq kb list' shows each article's status")
	}
	now := time.Now().UTC()
	res.Path, res.Kept = h.Path, keep
	var a *changelog.Article
	if h.Personal() {
		a, res.SetAside, err = resolveText(h, keep, now)
	} else {
		a, res.SetAside, err = resolveDraft(store, st, h, keep, now)
	}
	if err != nil {
		return res, err
	}
	data, err := changelog.RenderArticle(a)
	if err != nil {
		return res, err
	}
	res.Status = a.Status
	change := map[string]agent.Rewrite{h.Path: {Data: data, Was: h.Blob}}
	final := map[string]*changelog.Article{}
	for s, held := range st.Articles {
		final[s] = held.Article
	}
	final[slug] = a
	var ignored Result
	// A resolve leaves a knowledge base in step as it found it: the next
	// update keeps the side it kept.
	key, err := keyFor(repo, st, change, topics)
	if err != nil {
		return res, err
	}
	if err := indexChange(repo, st, final, topics, key, change, &ignored); err != nil {
		return res, err
	}
	commit, err := store.CommitGlobal(ctx, agent.GlobalChange{Rewrites: change,
		Message: "kb resolve " + slug + ": kept " + keep + " over " + strings.Join(res.SetAside, ", ") + "\n\n" + TrailerKey + ": resolve\n"})
	if err != nil {
		return res, err
	}
	res.Commit = commit.String()
	return res, nil
}

// notASide is the error for a SOURCE that is none of the conflict's sides.
func notASide(slug, keep string, sides []string) error {
	if len(sides) == 0 {
		return planqerr.New(planqerr.Invalid, "article "+slug, "its sources contradict each other no more").
			WithHint("'planq kb update' brings it in step")
	}
	return planqerr.New(planqerr.Invalid, keep, "is not a side of the conflict of article %s; its sides are %s", slug, strings.Join(sides, ", ")).
		WithHint("keep one of them: planq kb resolve %s --keep %s", slug, sides[0])
}

// resolveDraft makes an article of planq's again from its sources, with the
// conflict keep settles recorded.
func resolveDraft(store *agent.Store, st *state, h *held, keep string, now time.Time) (*changelog.Article, []string, error) {
	set, err := store.Records.Commit(st.Tip, changelog.KindLearning, changelog.KindDecision)
	if err != nil {
		return nil, nil, err
	}
	rs := newRecords(set.Records, set.Current())
	d := draftOf(h, rs)
	var live []*changelog.Record
	for _, r := range d.sourceRecords(rs) {
		if rs.live[r.ID] {
			live = append(live, r)
		}
	}
	against := contradictions(d.slug, live, d.ofSubject(rs))
	var sides []string
	for id := range against {
		sides = append(sides, id)
	}
	slices.Sort(sides)
	aside := slices.Clone(against[keep])
	if len(aside) == 0 {
		return nil, nil, notASide(d.slug, keep, sides)
	}
	slices.Sort(aside)
	d.resolved = append(d.resolved, resolution{date: dateOf(now), kept: keep, aside: aside})
	for _, s := range aside {
		d.aside[s] = true
	}
	d.sources = slices.DeleteFunc(d.sources, func(s string) bool { return d.aside[s] })
	final := finals(st)
	a, err := d.build(rs, nil) // its tags, for its Related links
	if err != nil {
		return nil, nil, err
	}
	final[d.slug] = a
	a, err = d.build(rs, relatedTo(d.slug, final))
	return a, aside, err
}

// resolveText settles the conflict of an article a person wrote or edited:
// the sides are the sources its Conflict section names; the others than
// keep leave its sources, the section gives way to the Resolved note, and
// the rest of the article stays as the person wrote it.
func resolveText(h *held, keep string, now time.Time) (*changelog.Article, []string, error) {
	a := *h.Article
	before, section, after, ok := cutSection(a.Body, conflictHeading)
	var sides []string
	if ok {
		sides = sourcesIn(section)
	}
	if !slices.Contains(sides, keep) {
		return nil, nil, notASide(h.Article.Slug, keep, sides)
	}
	aside := slices.DeleteFunc(slices.Clone(sides), func(s string) bool { return s == keep })
	if len(aside) == 0 {
		return nil, nil, notASide(h.Article.Slug, keep, nil)
	}
	note := resolution{date: dateOf(now), kept: keep, aside: aside}.line()
	if b, old, rest, ok := cutSection(before+after, resolvedHeading); ok {
		a.Body = b + resolvedHeading + "\n\n" + strings.Trim(old, "\n") + "\n" + note + "\n" + rest
	} else {
		a.Body = strings.TrimRight(before, "\n") + "\n\n" + resolvedHeading + "\n\n" + note + "\n" + after
	}
	a.Body = strings.Trim(a.Body, "\n")
	a.Sources = slices.DeleteFunc(slices.Clone(a.Sources), func(s string) bool { return slices.Contains(aside, s) })
	a.Status = changelog.StatusCurrent
	a.Updated = now.Truncate(time.Second)
	a.Timestamp = a.Updated
	return &a, aside, nil
}

// cutSection cuts body around the section headed by heading, to the next
// heading of its level or higher: what is before it, its text (without
// the heading), and what follows.
func cutSection(body, heading string) (before, section, after string, ok bool) {
	lines := strings.SplitAfter(body, "\n")
	start := -1
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if start < 0 {
			if t == heading {
				start = i
			}
			continue
		}
		if strings.HasPrefix(t, "# ") || t == "#" {
			return strings.Join(lines[:start], ""), strings.Join(lines[start+1:i], ""), "\n" + strings.Join(lines[i:], ""), true
		}
	}
	if start < 0 {
		return body, "", "", false
	}
	return strings.Join(lines[:start], ""), strings.Join(lines[start+1:], ""), "", true
}

// dateOf is t's day, in UTC: what a Resolved note records.
func dateOf(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}
