package knowledge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/embed"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// Options are how Update runs.
type Options struct {
	// Topics are the knowledge base's topics, in the order the index
	// lists them; none means DefaultTopics.
	Topics []string

	// derived, when set, receives what Update would write, and Update
	// writes nothing: the dry run kb curate and kb write read.
	derived *derivation
	// model embeds records for grouping by meaning; nil is the model
	// built into planq (a test gives its own).
	model embed.Model
}

// meaningModel is the model extraction groups by: the one built into
// planq, never the project's search model, so that every machine of a
// team, whatever endpoint it can reach, files a record with the same
// article and writes the same bytes. nil when this build carries none.
// It is loaded on first use: an update with no record to file by meaning
// (a pull's fast-forward to a global in step) reads no table.
func (o Options) meaningModel() func() embed.Model {
	if o.model != nil {
		return func() embed.Model { return o.model }
	}
	return sync.OnceValue(func() embed.Model {
		if m, err := embed.Default(); err == nil {
			return m
		}
		return nil
	})
}

// KnownTopics are the project's topics (DefaultTopics when it names
// none), checked.
func (o Options) KnownTopics() ([]string, error) { return o.topics() }

func (o Options) topics() ([]string, error) {
	if len(o.Topics) == 0 {
		return DefaultTopics, nil
	}
	for _, t := range o.Topics {
		if err := changelog.ValidateSlug("topic", t); err != nil {
			return nil, err
		}
	}
	return o.Topics, nil
}

// Result is what Update changed, by the articles' paths, sorted. Every
// list is present, empty when nothing happened to it.
type Result struct {
	// Commit is the commit on global, "" when nothing changed.
	Commit  string   `json:"commit"`
	Created []string `json:"created"`
	Updated []string `json:"updated"`
	// Deprecated are articles planq marked deprecated: every source of
	// theirs was superseded, retracted or archived.
	Deprecated []string `json:"deprecated"`
	// Disputed are articles this update marked disputed: sources that
	// contradict each other, both cited in a Conflict section. A new one
	// is in Created as well.
	Disputed []string `json:"disputed"`
	// Appended are articles a person edited: planq listed their new
	// sources under "New since your edit" and changed nothing else.
	Appended []string `json:"appended"`
	// Stale are articles a person edited whose every source is gone:
	// planq leaves them to the person.
	Stale []string `json:"stale"`
	// Remembered are articles a person deleted from global: planq
	// remembers it, and never makes them again.
	Remembered []string `json:"remembered"`
	// Removed are articles deleted on one side of a merge and updated on
	// the other: they stay deleted.
	Removed []string `json:"removed"`
	// Index is whether knowledge/_index.md was written.
	Index bool `json:"index"`
	// Skipped are files planq could not read, and articles it could not
	// write (a credential in a source's words, say), each with why.
	Skipped []Problem `json:"skipped"`
}

// Changed reports whether Update committed anything.
func (r Result) Changed() bool { return r.Commit != "" }

func (r *Result) fill() {
	for _, l := range []*[]string{&r.Created, &r.Updated, &r.Deprecated, &r.Disputed, &r.Appended, &r.Stale, &r.Remembered, &r.Removed} {
		if *l == nil {
			*l = []string{}
		}
		slices.Sort(*l)
	}
	if r.Skipped == nil {
		r.Skipped = []Problem{}
	}
}

// Update keeps the knowledge base on global in step with global's current
// learnings and decisions, in one commit (none when nothing changed): it
// makes the articles new subjects call for, adds new sources to planq's
// articles and deprecates those whose sources are all gone, lists new
// sources at the end of the articles a person edited, remembers the
// articles a person deleted, and regenerates knowledge/_index.md, which
// names what the update read (see stepKey): an update that finds global
// holding just that returns at once. What it writes depends on global
// alone, so a second run changes nothing, and every move of global can
// run it. An update that lost the
// race for an article to another writer (two promotes at once, each with
// its update) runs again from the new global, a few times.
//
// Each article written is checked once, by the write path (sizes, UTF-8,
// credentials): one it refuses (a credential in a source's words, say) is
// reported in Skipped, and the update runs again without it.
func Update(ctx context.Context, store *agent.Store, opts Options) (Result, error) {
	refused := map[string]string{}
	for attempt := 1; ; attempt++ {
		res, err := update(ctx, store, opts, refused)
		if p, why, ok := refusedArticle(err); ok && refused[p] == "" && len(refused) < maxRefused {
			refused[p] = why
			attempt--
			continue
		}
		if err == nil || !planqerr.Is(err, planqerr.Busy) || attempt == maxAttempts {
			return res, err
		}
		if err := staterepo.Sleep(ctx, time.Duration(attempt)*10*time.Millisecond); err != nil {
			return res, err
		}
	}
}

// maxAttempts bounds the runs of an update that keeps losing races.
const maxAttempts = 8

// maxRefused bounds the articles one update leaves out for what the write
// path refused in them, each found by a run of its own.
const maxRefused = 16

// refusedArticle is the path and the reason when err is the write path
// refusing what an article, or the index, holds (planqerr.Refused: a
// credential; planqerr.Invalid: too large, not text). The index says what
// its articles' titles and descriptions say: refused, the next run checks
// every article as the write path does before it joins the index.
func refusedArticle(err error) (string, string, bool) {
	var pe *planqerr.Error
	if err == nil || !errors.As(err, &pe) || !planqerr.Is(err, planqerr.Refused) && !planqerr.Is(err, planqerr.Invalid) {
		return "", "", false
	}
	if _, _, ok := changelog.SplitArticlePath(pe.Subject); !ok && pe.Subject != IndexPath {
		return "", "", false
	}
	return pe.Subject, pe.Error(), true
}

// update is one run of Update; refused are the articles, by path, that the
// write path refused in an earlier run, with why: they are left as they
// are.
func update(ctx context.Context, store *agent.Store, opts Options, refused map[string]string) (Result, error) {
	var res Result
	topics, err := opts.topics()
	if err != nil {
		return res, err
	}
	claims := opts.derived == nil && len(refused) == 0 // see claimedStep
	if claims {
		if done, err := globalInStep(store.Repo, topics); err == nil && done {
			res.fill()
			return res, nil
		}
	}
	st, rs, err := readForUpdate(ctx, store, opts.derived == nil)
	if err != nil {
		return res, err
	}
	res.Skipped = append(res.Skipped, st.Problems...)
	u := &updateRun{st: st, rs: rs, final: finals(st), change: map[string]agent.Rewrite{}, guard: guardOf(opts, refused), res: &res}
	u.keepDeleted()
	drafts := u.draftGroups(groupRecords(rs, citedBy(st), meaningsOf(ctx, opts.meaningModel())), topics)
	u.draftStale(drafts)
	if err := u.buildDrafts(drafts); err != nil {
		return res, err
	}
	// The articles made again above may link to others, and others to
	// them, by the tags they share: those others are made again too.
	if more := relatedDrafts(drafts, st, rs, u.final); len(more) > 0 {
		if err := u.buildDrafts(more); err != nil {
			return res, err
		}
	}
	u.rememberGone()
	key, err := u.claimedStep(store.Repo, claims, topics)
	if err != nil {
		return res, err
	}
	if err := indexChange(store.Repo, st, u.final, topics, key, u.change, &res); err != nil {
		return res, err
	}
	res.fill()
	if opts.derived != nil {
		*opts.derived = derivation{st: st, rs: rs, change: u.change, topics: topics}
		return res, nil
	}
	if len(u.change) == 0 {
		return res, nil
	}
	commit, err := store.CommitGlobal(ctx, agent.GlobalChange{Rewrites: u.change, Message: updateMessage(res)})
	if err != nil {
		return res, err
	}
	res.Commit = commit.String()
	return res, nil
}

// readForUpdate: the articles planq wrote come parsed from the read model's
// cache of them; without it, from git.
func readForUpdate(ctx context.Context, store *agent.Store, readOnly bool) (*state, *records, error) {
	tip, err := store.Repo.Tip(project.GlobalBranch)
	if err != nil {
		return nil, nil, err
	}
	cached, err := store.Records.ArticleFiles(tip)
	if err != nil {
		cached = nil
	}
	st, err := readState(ctx, store.Repo, tip, cached, readOnly)
	if err != nil {
		return nil, nil, err
	}
	set, err := store.Records.Commit(tip, changelog.KindLearning, changelog.KindDecision)
	if err != nil {
		return nil, nil, err
	}
	rs := newRecords(set.Records, set.Current())
	if !st.Index.IsZero() {
		index, err := store.Repo.ReadBlob(st.Index)
		rs.statusesFollowRule = err == nil && bytes.Contains(index, []byte(disputeRuleMark))
	}
	return st, rs, nil
}

// updateRun is one update under way: final is by slug, change by path.
type updateRun struct {
	st     *state
	rs     *records
	final  map[string]*changelog.Article
	change map[string]agent.Rewrite
	guard  func(string, []byte) error
	res    *Result
}

// rememberGone remembers the articles a person deleted without planq.
func (u *updateRun) rememberGone() {
	for _, g := range u.st.Gone {
		u.change[DeletedPath(g[0], g[1])] = agent.Rewrite{Data: deletedNote(g[0], g[1])}
		u.res.Remembered = append(u.res.Remembered, changelog.ArticlePath(g[0], g[1]))
	}
}

// claimedStep is the key the index claims (see stepKey), so that the next
// update has nothing to read: "" when the run may not claim (a dry run,
// which writes no object; a run after a refusal) or has something to say
// again next time (a file it could not read, an article it left out).
func (u *updateRun) claimedStep(repo *staterepo.Repo, claims bool, topics []string) (string, error) {
	if !claims || len(u.res.Skipped) > 0 {
		return "", nil
	}
	return keyAfter(repo, u.st.Tree, u.change, topics)
}

// keepDeleted: an article of planq's deleted on one side of a merge and
// updated on the other came back with the update: it stays deleted.
func (u *updateRun) keepDeleted() {
	for _, slug := range u.st.Slugs() {
		h := u.st.Articles[slug]
		if u.st.Markers[DeletedPath(h.Article.Topic, slug)] && !h.Person {
			u.change[h.Path] = agent.Rewrite{Was: h.Blob}
			u.res.Removed = append(u.res.Removed, h.Path)
			delete(u.final, slug)
		}
	}
}

func finals(st *state) map[string]*changelog.Article {
	final := make(map[string]*changelog.Article, len(st.Articles))
	for slug, h := range st.Articles {
		final[slug] = h.Article
	}
	return final
}

// citedBy is, by record ID, the article that cites it: the first, by
// slug, that lists it among its sources, else the first whose text names
// it (a "superseded by" mark names the successor). A record stays with
// the article it is a source of, though another names it.
func citedBy(st *state) map[string]string {
	citedBy := map[string]string{}
	slugs := st.Slugs()
	for _, slug := range slugs {
		for _, id := range st.Articles[slug].Article.Sources {
			if _, ok := citedBy[id]; !ok {
				citedBy[id] = slug
			}
		}
	}
	for _, slug := range slugs {
		for id := range st.Articles[slug].Mentioned() {
			if _, ok := citedBy[id]; !ok {
				citedBy[id] = slug
			}
		}
	}
	return citedBy
}

func (u *updateRun) draftGroups(groups []*group, topics []string) map[string]*draft {
	drafts := map[string]*draft{}
	for _, g := range groups {
		h := u.st.Articles[g.slug]
		switch {
		case h != nil && u.final[g.slug] == nil: // removed by keepDeleted
		case h == nil:
			if !u.st.Deleted[g.slug] && u.st.Broken[g.slug] == "" {
				drafts[g.slug] = newDraft(g, topics)
			}
		case h.Personal():
			u.appendFresh(h, g.recs)
		default:
			if d := redraft(h, g.recs, u.rs); d != nil {
				drafts[g.slug] = d
			}
		}
	}
	return drafts
}

// appendFresh: a contradiction goes with its source's line, the person's
// article is not marked, nor rewritten.
func (u *updateRun) appendFresh(h *held, recs []*changelog.Record) {
	known := h.Mentioned()
	var fresh []*changelog.Record
	for _, r := range recs {
		if !known[r.ID] {
			fresh = append(fresh, r)
		}
	}
	if len(fresh) > 0 {
		u.change[h.Path] = agent.Rewrite{Data: appendNew(h.Data, fresh, contradictionNotes(h, fresh, u.rs)), Was: h.Blob}
		u.res.Appended = append(u.res.Appended, h.Path)
	}
}

func redraft(h *held, recs []*changelog.Record, rs *records) *draft {
	d := draftOf(h, rs)
	fresh := false
	for _, r := range recs {
		// A source kb resolve set aside stays cited by the Resolved note,
		// so it stays in this group: it does not join again.
		if !slices.Contains(d.sources, r.ID) && !d.aside[r.ID] {
			d.sources = append(d.sources, r.ID)
			fresh = true
		}
	}
	if fresh || d.stale(h, rs) {
		return d
	}
	return nil
}

func (u *updateRun) draftStale(drafts map[string]*draft) {
	for _, slug := range u.st.Slugs() {
		h := u.st.Articles[slug]
		if u.final[slug] == nil || drafts[slug] != nil {
			continue
		}
		if h.Personal() {
			if allGone(h.Article.Sources, u.rs) {
				u.res.Stale = append(u.res.Stale, h.Path)
			}
			continue
		}
		if d := draftOf(h, u.rs); d.stale(h, u.rs) {
			drafts[slug] = d // its sources may have ended
		}
	}
}

// guardOf is the check an article planq made passes before it joins the
// change. A dry run (kb curate) checks it as the write path would, since it
// writes nothing, and so does an update whose index the write path refused
// in an earlier run; an update that commits leaves the credential scan to
// the write path (CommitGlobal scans every file once), and leaves out the
// articles it refused in an earlier run (refused).
func guardOf(opts Options, refused map[string]string) func(path string, data []byte) error {
	if opts.derived != nil {
		return agent.GuardFile
	}
	if _, ok := refused[IndexPath]; ok {
		return agent.GuardFile
	}
	return func(path string, data []byte) error {
		if why, ok := refused[path]; ok {
			return errors.New(why)
		}
		return agent.CheckTextFile(path, data, "a file kept beside the records", "files kept beside the records")
	}
}

// buildDrafts writes the drafts that changed into change, each made twice:
// once to learn every article's tags, once with its Related links; guard
// checks each, and one it refuses is skipped.
func (u *updateRun) buildDrafts(drafts map[string]*draft) error {
	slugs := slices.Sorted(maps.Keys(drafts))
	for _, slug := range slugs {
		a, err := drafts[slug].build(u.rs, nil)
		if err != nil {
			return fmt.Errorf("failed to make article %s: %w", slug, err)
		}
		u.final[slug] = a
	}
	for _, slug := range slugs {
		a, err := drafts[slug].build(u.rs, relatedTo(slug, u.final))
		if err != nil {
			return fmt.Errorf("failed to make article %s: %w", slug, err)
		}
		data, err := changelog.RenderArticle(a)
		if err != nil {
			return err
		}
		u.write(slug, a, data)
		if _, written := u.change[a.Path()]; written {
			for _, t := range drafts[slug].leftOut {
				u.res.Skipped = append(u.res.Skipped, Problem{Path: a.Path(), Problem: fmt.Sprintf("left out the tag %q: an article's tags are at most %d characters", t, changelog.MaxTagLen)})
			}
		}
	}
	return nil
}

// write puts the article a, rendered as data, in the change unless it is
// what global holds already or guard refuses it.
func (u *updateRun) write(slug string, a *changelog.Article, data []byte) {
	h := u.st.Articles[slug]
	if h != nil && bytes.Equal(h.Data, data) {
		u.final[slug] = h.Article
		return
	}
	if err := u.guard(a.Path(), data); err != nil {
		u.res.Skipped = append(u.res.Skipped, Problem{Path: a.Path(), Problem: err.Error()})
		if h != nil {
			u.final[slug] = h.Article
		} else {
			delete(u.final, slug)
		}
		return
	}
	u.final[slug] = a
	rw := agent.Rewrite{Data: data}
	if h == nil {
		u.res.Created = append(u.res.Created, a.Path())
		if a.Status == changelog.StatusDisputed {
			u.res.Disputed = append(u.res.Disputed, a.Path())
		}
		u.change[a.Path()] = rw
		return
	}
	rw.Was = h.Blob
	switch {
	case a.Status == changelog.StatusDeprecated && h.Article.Status != changelog.StatusDeprecated:
		u.res.Deprecated = append(u.res.Deprecated, a.Path())
	case a.Status == changelog.StatusDisputed && h.Article.Status != changelog.StatusDisputed:
		u.res.Disputed = append(u.res.Disputed, a.Path())
	default:
		u.res.Updated = append(u.res.Updated, a.Path())
	}
	u.change[a.Path()] = rw
}

// newDraft is the draft of a new article for g: its title the subject (or
// the domain, or the decision), its topic the one most of its records
// belong to, made when its first source was.
func newDraft(g *group, topics []string) *draft {
	d := &draft{slug: g.slug, topic: topicOf(g.recs, topics), created: g.recs[0].Timestamp}
	for _, r := range g.recs {
		d.sources = append(d.sources, r.ID)
	}
	first := g.recs[0]
	for _, r := range g.recs {
		if r.Subject != "" {
			d.title = r.Subject
			break
		}
	}
	switch {
	case d.title != "":
	case first.Kind == changelog.KindDecision:
		d.title = decisionTitle(first)
	default:
		d.title = first.Domain
	}
	return d
}

// draftOf is the draft of an article planq wrote: what it cites, with
// what it is called, where it is, and when it was made.
func draftOf(h *held, rs *records) *draft {
	d := &draft{slug: h.Article.Slug, topic: h.Article.Topic, title: h.Article.Title, created: h.Article.Created,
		resolved: resolutionsOf(h.Article.Body), aside: map[string]bool{}}
	for _, r := range d.resolved {
		for _, s := range r.aside {
			d.aside[s] = true
		}
	}
	for _, s := range h.Article.Sources {
		if d.aside[s] {
			continue // set aside by 'planq kb resolve'
		}
		if changelog.ValidID(s) && rs.byID[s] != nil {
			d.sources = append(d.sources, s)
		} else {
			d.other = append(d.other, s)
		}
	}
	return d
}

// allGone reports whether every record sources names is known and none
// is current.
func allGone(sources []string, rs *records) bool {
	n := 0
	for _, s := range sources {
		if rs.byID[s] == nil {
			continue
		}
		if rs.live[s] {
			return false
		}
		n++
	}
	return n > 0
}

// relatedTo links the articles that share a tag with the article slug, by
// their paths relative to its own, at most eight, by path.
func relatedTo(slug string, final map[string]*changelog.Article) []link {
	self := final[slug]
	var out []link
	for other, a := range final {
		if other == slug || !sharesTag(self.Tags, a.Tags) {
			continue
		}
		rel := "../" + a.Topic + "/" + a.Slug + ".md"
		if a.Topic == self.Topic {
			rel = a.Slug + ".md"
		}
		out = append(out, link{title: a.Title, href: rel})
	}
	slices.SortFunc(out, func(x, y link) int { return strings.Compare(path.Clean(x.href), path.Clean(y.href)) })
	if len(out) > 8 {
		out = out[:8]
	}
	return out
}

func sharesTag(a, b []string) bool {
	for _, t := range a {
		if slices.Contains(b, t) {
			return true
		}
	}
	return false
}

// newSinceHeading heads the list of sources new since a person's edit.
const newSinceHeading = "# New since your edit"

// appendNew lists recs at the end of an article a person edited, under
// newSinceHeading, each by its first sentence and ID; the rest of the file
// is left as it is.
func appendNew(data []byte, recs []*changelog.Record, notes map[string]string) []byte {
	text := strings.TrimRight(string(data), "\n") + "\n"
	lastHeading := ""
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "#") {
			lastHeading = strings.TrimSpace(line)
		}
	}
	var b strings.Builder
	b.WriteString(text)
	if lastHeading != newSinceHeading {
		b.WriteString("\n" + newSinceHeading + "\n\n")
	}
	for _, r := range recs {
		marks := r.ID
		if n := notes[r.ID]; n != "" {
			marks += "; " + n
		}
		fmt.Fprintf(&b, "- %s (%s)\n", lineOf(r), marks)
	}
	return []byte(b.String())
}

func updateMessage(r Result) string {
	var parts []string
	for _, c := range []struct {
		n    int
		what string
	}{{len(r.Created), "created"}, {len(r.Updated), "updated"}, {len(r.Deprecated), "deprecated"}, {len(r.Disputed), "disputed"}, {len(r.Appended), "appended to"},
		{len(r.Remembered), "remembered deleted"}, {len(r.Removed), "kept deleted"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.what))
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "index")
	}
	return "kb update: " + strings.Join(parts, ", ") + "\n\n" + TrailerKey + ": update\n"
}

// indexChange regenerates knowledge/_index.md from the articles and puts
// it in change when it differs from global's.
func indexChange(repo *staterepo.Repo, st *state, final map[string]*changelog.Article, topics []string, key string, change map[string]agent.Rewrite, res *Result) error {
	if len(final) == 0 && st.Index.IsZero() {
		return nil
	}
	data := renderIndex(final, topics, key)
	if !st.Index.IsZero() {
		old, err := repo.ReadBlob(st.Index)
		if err != nil {
			return err
		}
		if bytes.Equal(old, data) || len(change) == 0 && bytes.Equal(withoutInStep(old), withoutInStep(data)) {
			return nil // a new claim alone is worth no commit
		}
	}
	change[IndexPath] = agent.Rewrite{Data: data, Was: st.Index}
	res.Index = true
	return nil
}
