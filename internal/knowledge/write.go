package knowledge

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/readmodel"
)

// WriteOptions are how Write takes an agent's article.
type WriteOptions struct {
	Options
	// Slug names the article (its file, knowledge/<topic>/<slug>.md).
	Slug string
	// Name is where the text came from (a file, stdin), for errors.
	Name string
	// Force writes an article that was deleted (and forgets the
	// deletion), one whose text drops a line of a person's, over a file
	// at its path planq cannot read, and one that drops a source of the
	// article on global that is no record of global (a commit, an issue).
	Force bool
}

// WriteResult is what Write (or Edit) did.
type WriteResult struct {
	Path string `json:"path"`
	Slug string `json:"slug"`
	// Action is created, updated or unchanged (nothing was committed).
	Action string `json:"action"`
	// Moved is the path the article was at, when its topic changed.
	Moved string `json:"moved,omitempty"`
	// Restored: the article had been deleted, and was written anyway.
	Restored  bool                `json:"restored"`
	CuratedBy changelog.CuratedBy `json:"curated_by"`
	Updated   time.Time           `json:"updated"`
	Commit    string              `json:"commit"`
}

// now is the time an article is stamped with when it changes.
var now = func() time.Time { return time.Now().UTC().Truncate(time.Second) }

// Write checks an agent's article and commits it to global, with the
// index regenerated, as planq's (its commit carries the Planq-Knowledge
// trailer, so Update reads it as written by planq, not by a person). The
// article must parse strictly, be of a project topic, cite only sources
// that exist (the record IDs it adds are learnings or decisions on
// global), hold no control character in its title, description, tags
// or topic, list in its sources every record its text names and every
// source the candidate at its slug gathers (what is no record of global,
// only with opts.Force), and, where a person edited
// the article, keep every line of its body and its title. A deleted
// article is not written again, nor a person's text dropped, nor a file
// planq cannot read replaced, unless opts.Force. The article is stored
// with curated_by mixed: planq's extraction and an agent's editing, so
// Update never rewrites the agent's words, only lists new sources at
// its end; its updated time is now when its text changed.
func Write(ctx context.Context, store *agent.Store, data []byte, opts WriteOptions) (WriteResult, error) {
	var res WriteResult
	if opts.Slug == "" {
		return res, planqerr.New(planqerr.Invalid, "article", "no slug: the slug names the article's file").
			WithHint("give the slug: --slug SLUG, or a FILE named <slug>.md (planq kb curate lists each candidate's slug)")
	}
	if err := changelog.ValidateSlug("slug", opts.Slug); err != nil {
		return res, err
	}
	subject := "article " + opts.Slug
	a, err := parseGiven(subject, opts.Name, opts.Slug, data)
	if err != nil {
		return res, err
	}
	_, d, err := derive(ctx, store, opts.Options)
	if err != nil {
		return res, err
	}
	h := d.st.Articles[opts.Slug]
	if err := d.checkWrite(subject, a, h, opts); err != nil {
		return res, err
	}
	a.CuratedBy = changelog.CuratedMixed
	if h != nil {
		// The article's own times: it changes now, if it changes at all.
		a.Created = h.Article.Created
		a.Updated, a.Timestamp = h.Article.Updated, h.Article.Updated
		same, err := changelog.RenderArticle(a)
		if err != nil {
			return res, err
		}
		if h.Path == a.Path() && bytes.Equal(same, h.Data) {
			return WriteResult{Path: h.Path, Slug: a.Slug, Action: "unchanged", CuratedBy: a.CuratedBy, Updated: a.Updated}, nil
		}
	}
	msg := "kb write " + opts.Slug + "\n\n" + TrailerKey + ": write\n"
	return commitArticle(ctx, store, d, h, a, true, msg)
}

// checkWrite refuses a, the article given for opts.Slug in place of h,
// for what the write path does not store (see Write).
func (d *derivation) checkWrite(subject string, a *changelog.Article, h *held, opts WriteOptions) error {
	if err := d.checkTopic(subject, a); err != nil {
		return err
	}
	if err := d.checkSources(subject, a, h); err != nil {
		return err
	}
	if err := checkConflict(subject, a); err != nil {
		return err
	}
	records, cited := d.splitMissing(missingFrom(a.Sources, d.consumed(opts.Slug)))
	if len(records) > 0 {
		return planqerr.New(planqerr.Invalid, subject, "sources leave out %s, which the article gathers", strings.Join(records, ", ")).
			WithHint("cite every source the candidate lists ('planq kb curate' shows them): an article that drops one loses what it says")
	}
	if opts.Force {
		return nil
	}
	if len(cited) > 0 {
		// A commit, an issue or a record global does not hold says nothing
		// the article would lose: it may go, when asked.
		return planqerr.New(planqerr.Invalid, subject, "sources leave out %s, which the article on global cites", strings.Join(cited, ", ")).
			WithHint("keep it among sources, or --force drops it: it is no record of global, so the article loses none of what it says")
	}
	return guardWrite(subject, d.st, h, a, opts.Slug)
}

// parseGiven reads the article a person or an agent gave for slug,
// strictly, naming where it came from in the error.
func parseGiven(subject, name, slug string, data []byte) (*changelog.Article, error) {
	a, err := changelog.ParseArticle("", data)
	if err != nil {
		var pe *changelog.ParseError
		if errors.As(err, &pe) {
			named := *pe
			named.Path = nameOr(name)
			err = &named
		}
		if line, text, fixed := keyedSource(data); line > 0 {
			return nil, planqerr.New(planqerr.Invalid, subject, "%s:%d: sources: %q is read by YAML as a key and a value, not a source: write it as one word, %s", nameOr(name), line, text, fixed).
				WithHint("a source is one word: a record ID, commit:<hex> or issue:<ref>, like issue:#29")
		}
		return nil, planqerr.New(planqerr.Invalid, subject, "%w", err).
			WithHint("an article is a '---' line, its YAML frontmatter (type: article, title, description, topic, created, updated, timestamp, sources, confidence, status, curated_by), another '---' line, then Markdown")
	}
	a.Slug = slug
	if err := checkPlain(subject, a); err != nil {
		return nil, err
	}
	return a, nil
}

// nameOr is where a text came from, as errors name it.
func nameOr(name string) string {
	if name == "" {
		return "the article"
	}
	return name
}

// keyedSource finds, in the frontmatter of an article that did not parse,
// the first item of sources written "- issue: #29" or "- commit: abc":
// YAML reads a key and a value there (and "#29" as a comment), where a
// source is one word. It returns the item's line, its text, and the
// source as it should be written; 0 when there is none.
func keyedSource(data []byte) (int, string, string) {
	lines := strings.Split(string(data), "\n")
	if len(lines) == 0 || strings.TrimRight(lines[0], "\r ") != "---" {
		return 0, "", ""
	}
	inSources := false
	for i, line := range lines[1:] {
		line = strings.TrimRight(line, "\r")
		if strings.TrimRight(line, " ") == "---" {
			break
		}
		if line != "" && line[0] != ' ' && line[0] != '\t' && line[0] != '-' {
			key, _, _ := strings.Cut(line, ":")
			inSources = strings.TrimSpace(key) == "sources"
			continue
		}
		item, ok := strings.CutPrefix(strings.TrimLeft(line, " \t"), "-")
		if !inSources || !ok {
			continue
		}
		item = strings.TrimSpace(item)
		if fixed, ok := keyedItem(item); ok {
			return i + 2, item, fixed
		}
	}
	return 0, "", ""
}

// keyedItem is the source item, an item of sources, should be written as
// when YAML reads it as a key and a value.
func keyedItem(item string) (string, bool) {
	for _, kind := range []string{"issue", "commit"} {
		value, ok := strings.CutPrefix(item, kind+":")
		if !ok || value != "" && value[0] != ' ' && value[0] != '\t' {
			continue
		}
		value = strings.Trim(strings.TrimSpace(value), `"'`)
		if value == "" {
			value = map[string]string{"issue": "<ref>", "commit": "<hex>"}[kind]
		}
		return kind + ":" + value, true
	}
	return "", false
}

// checkTopic refuses a topic the project does not have.
func (d *derivation) checkTopic(subject string, a *changelog.Article) error {
	if slices.Contains(d.topics, a.Topic) {
		return nil
	}
	return planqerr.New(planqerr.Invalid, subject, "topic %q is not one of the project's topics (%s)", a.Topic, strings.Join(d.topics, ", ")).
		WithHint("pick one of them, or add it to the knowledge: topics: list of .planq/config")
}

// checkSources refuses a record ID among a's sources that global holds no
// learning or decision of (one the article on global cites already
// stays), and a record its text names that its sources leave out.
func (d *derivation) checkSources(subject string, a *changelog.Article, h *held) error {
	if err := d.checkSourcesExist(subject, a, h); err != nil {
		return err
	}
	var named []string
	readmodel.IDsIn(a.Body, func(id string) {
		if !slices.Contains(a.Sources, id) && !slices.Contains(named, id) {
			named = append(named, id)
		}
	})
	if len(named) > 0 {
		return planqerr.New(planqerr.Invalid, subject, "the text cites %s, which sources does not list", strings.Join(named, ", ")).
			WithHint("add each to sources, or take it out of the text: every record an article names is one of its sources")
	}
	return nil
}

// checkSourcesExist refuses a record ID among a's sources that global
// holds no learning or decision of, unless h, the article on global,
// cites it already.
func (d *derivation) checkSourcesExist(subject string, a *changelog.Article, h *held) error {
	var had []string
	if h != nil {
		had = h.Article.Sources
	}
	for _, s := range a.Sources {
		if changelog.ValidID(s) && d.rs.byID[s] == nil && !slices.Contains(had, s) {
			return planqerr.New(planqerr.Invalid, subject, "sources: %s is no learning or decision on global", s).
				WithHint("cite the records the packet lists ('planq kb curate'); 'planq get %s' looks for it", s)
		}
	}
	return nil
}

// checkConflict refuses a disputed article without its Conflict section.
func checkConflict(subject string, a *changelog.Article) error {
	if a.Status != changelog.StatusDisputed || hasHeading(a.Body, "Conflict") {
		return nil
	}
	return planqerr.New(planqerr.Invalid, subject, "status: disputed, but there is no # Conflict section").
		WithHint("add a # Conflict section that cites each side, or set status: current")
}

func hasHeading(body, title string) bool {
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, "#") && strings.TrimSpace(strings.TrimLeft(line, "#")) == title {
			return true
		}
	}
	return false
}

// splitMissing parts the sources an article leaves out into the records
// of global it gathers, which it must keep, and what it only cites (a
// commit, an issue, a record global does not hold), which --force drops.
func (d *derivation) splitMissing(missing []string) (records, cited []string) {
	for _, s := range missing {
		if changelog.ValidID(s) && d.rs.byID[s] != nil {
			records = append(records, s)
		} else {
			cited = append(cited, s)
		}
	}
	return records, cited
}

// missingFrom lists what of want sources leaves out, in want's order.
func missingFrom(sources, want []string) []string {
	var out []string
	for _, s := range want {
		if !slices.Contains(sources, s) {
			out = append(out, s)
		}
	}
	return out
}

// guardWrite refuses what only --force writes: a deleted article, a file
// at the article's path planq cannot read, and a version of an article a
// person edited that drops a line of its body, or its title.
func guardWrite(subject string, st *state, h *held, a *changelog.Article, slug string) error {
	switch {
	case h == nil && st.Broken[slug] != "":
		return planqerr.New(planqerr.Refused, subject, "%s is there and is no article planq can read", st.Broken[slug]).
			WithHint("fix it with 'planq kb edit %s', or --force to replace it", slug)
	case st.Deleted[slug] && (h == nil || !h.Person):
		return planqerr.New(planqerr.Refused, subject, "was deleted; planq does not make it again").
			WithHint("--force writes it anyway and forgets the deletion")
	case h == nil || !h.Person:
		return nil
	}
	if a.Title != h.Article.Title {
		return planqerr.New(planqerr.Refused, subject, "a person edited it, and this version changes its title %q", h.Article.Title).
			WithHint("keep the title, or --force to replace a person's text")
	}
	if line, ok := dropped(h.Article.Body, a.Body); ok {
		return planqerr.New(planqerr.Refused, subject, "a person edited it, and this version drops their line %q", changelog.Shorten(line, 80)).
			WithHint("keep every line of the article's body, in order, and add around them; or --force to replace a person's text")
	}
	return nil
}

// dropped finds the first line of old's body (outside a "New since your
// edit" list, which the new version folds in) that body does not keep in
// order; false when it keeps them all. Blank lines and surrounding
// spaces do not count.
func dropped(old, body string) (string, bool) {
	kept := strings.Split(body, "\n")
	at := 0
	inNew := false
	for _, line := range strings.Split(old, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "#") {
			inNew = t == newSinceHeading
		}
		if t == "" || inNew {
			continue
		}
		found := false
		for at < len(kept) {
			at++
			if strings.TrimSpace(kept[at-1]) == t {
				found = true
				break
			}
		}
		if !found {
			return t, true
		}
	}
	return "", false
}

// commitArticle stores a at its slug on global in one commit with the
// index regenerated: in place of h (moved when its topic changed), over
// the unreadable file at its path, or anew, forgetting its deletion. With
// touch, its updated time becomes now.
func commitArticle(ctx context.Context, store *agent.Store, d *derivation, h *held, a *changelog.Article, touch bool, message string) (WriteResult, error) {
	st := d.st
	res := WriteResult{Slug: a.Slug, Path: a.Path(), CuratedBy: a.CuratedBy, Action: "created"}
	change, err := replaced(store, st, h, a, &res)
	if err != nil {
		return res, err
	}
	if touch {
		t := now()
		a.Updated, a.Timestamp = t, t
		if a.Created.IsZero() || a.Created.After(t) {
			a.Created = t
		}
	}
	res.Updated = a.Updated
	if err := putArticle(a, h, change); err != nil {
		return res, err
	}
	if res.Restored, err = forgetDeletion(store, st, a.Slug, change); err != nil {
		return res, err
	}
	if h == nil && st.Deleted[a.Slug] {
		res.Restored = true
	}
	final := finals(st)
	final[a.Slug] = a
	var ignored Result
	if err := indexChange(store.Repo, st, final, d.topics, "", change, &ignored); err != nil {
		return res, err
	}
	commit, err := store.CommitGlobal(ctx, agent.GlobalChange{Rewrites: change, Message: message})
	if err != nil {
		return res, err
	}
	res.Commit = commit.String()
	return res, nil
}

// putArticle writes a into change at its path, in place of h or of the
// unreadable file there.
func putArticle(a *changelog.Article, h *held, change map[string]agent.Rewrite) error {
	data, err := changelog.RenderArticle(a)
	if err != nil {
		return err
	}
	if _, err := changelog.ParseArticle(a.Path(), data); err != nil {
		return planqerr.New(planqerr.Invalid, "article "+a.Slug, "%w", err)
	}
	rw := agent.Rewrite{Data: data}
	if h != nil && h.Path == a.Path() {
		rw.Was = h.Blob
	} else if was, ok := change[a.Path()]; ok {
		rw.Was = was.Was // the unreadable file it replaces
	}
	change[a.Path()] = rw
	return nil
}

// replaced is the change that takes away what a replaces: h, when its
// topic changed, or the unreadable file at a's path.
func replaced(store *agent.Store, st *state, h *held, a *changelog.Article, res *WriteResult) (map[string]agent.Rewrite, error) {
	change := map[string]agent.Rewrite{}
	if h != nil {
		res.Action = "updated"
		if h.Path != a.Path() {
			res.Moved = h.Path
			change[h.Path] = agent.Rewrite{Was: h.Blob}
		}
	} else if b := st.Broken[a.Slug]; b != "" {
		blob, err := store.Repo.BlobAt(st.Tree, b)
		if err != nil {
			return change, err
		}
		change[b] = agent.Rewrite{Was: blob}
		res.Action = "updated"
	}
	return change, nil
}

// forgetDeletion removes in change the files that remember slug's
// deletion; true when there were any.
func forgetDeletion(store *agent.Store, st *state, slug string, change map[string]agent.Rewrite) (bool, error) {
	restored := false
	for p := range st.Markers {
		if _, s, ok := strings.Cut(strings.TrimPrefix(p, deletedDir), "/"); ok && s == slug {
			blob, err := store.Repo.BlobAt(st.Tree, p)
			if err != nil {
				return restored, err
			}
			change[p] = agent.Rewrite{Was: blob}
			restored = true
		}
	}
	return restored, nil
}
