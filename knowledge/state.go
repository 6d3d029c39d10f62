package knowledge

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/staterepo"
)

// TrailerKey is the trailer planq's commits of the knowledge base carry
// ("Planq-Knowledge: update"): a version of an article that a commit
// without it wrote is a person's.
const TrailerKey = "Planq-Knowledge"

// Paths of the knowledge base on global.
var (
	dir        = changelog.KindArticle.Dir()
	IndexPath  = dir + "/_index.md"
	deletedDir = dir + "/.deleted/"
)

// DeletedPath is the file that remembers that the article slug of topic
// was deleted.
func DeletedPath(topic, slug string) string { return deletedDir + topic + "/" + slug }

// deletedNote is what a deletion's file says: the same on every machine,
// so that two deletions of one article merge into one.
func deletedNote(topic, slug string) []byte {
	return []byte(changelog.ArticlePath(topic, slug) + " was deleted; planq does not make it again.\n")
}

// Problem is a file of the knowledge base planq could not read, or an
// article it could not write, and why.
type Problem struct {
	Path    string `json:"path"`
	Problem string `json:"problem"`
}

// held is an article on global as planq found it.
type held struct {
	a    *changelog.Article
	path string
	blob staterepo.Hash
	data []byte
	// person: a person wrote a version of it (a commit without planq's
	// trailer), so planq never rewrites it.
	person bool
}

// personal: planq never rewrites an article a person wrote or curated.
func (h *held) personal() bool { return h.person || h.a.CuratedBy != changelog.CuratedAuto }

// state is the knowledge base on global at one commit, and what its
// history says about it.
type state struct {
	tip, tree staterepo.Hash
	articles  map[string]*held // by slug
	// broken are the files at an article's path that are no article, by
	// slug: planq never writes over them.
	broken   map[string]string
	problems []Problem
	// deleted are the slugs of deleted articles, markers the paths of the
	// files that remember them.
	deleted map[string]bool
	markers map[string]bool
	// lastText is the blob of a deleted article's last version, by slug:
	// the way back.
	lastText map[string]staterepo.Hash
	index    staterepo.Hash
	// gone are the articles that were on global once and are no more,
	// with no file that remembers their deletion: a person deleted them.
	gone [][2]string // topic, slug
}

// forSlug checks slug and reads global's knowledge base for a command on
// one article (delete, resolve, edit).
func forSlug(ctx context.Context, repo *staterepo.Repo, slug string) (*state, error) {
	if err := changelog.ValidateSlug("slug", slug); err != nil {
		return nil, err
	}
	return readGlobal(ctx, repo)
}

// readGlobal is readState of global's tip.
func readGlobal(ctx context.Context, repo *staterepo.Repo) (*state, error) {
	tip, err := repo.Tip(project.GlobalBranch)
	if err != nil {
		return nil, err
	}
	return readState(ctx, repo, tip, nil, false)
}

// readState reads the knowledge base as the commit tip holds it: its
// articles, what cannot be read, the deletions remembered, and who wrote
// each article last (from history). cached, when given, holds articles
// already parsed, by blob (the read model's), which keeps what an article
// says and the file's bytes, not the keys of other tools its frontmatter
// may hold: an article planq alone wrote is taken from it, since planq
// renders only those again; with readOnly, every article is, for a caller
// that renders none of the others (an update, which appends to a person's
// article as its bytes are). The rest are read and parsed.
func readState(ctx context.Context, repo staterepo.Reads, tip staterepo.Hash, cached map[staterepo.Hash]readmodel.ArticleFile, readOnly bool) (*state, error) {
	tree, err := repo.TreeOf(tip)
	if err != nil {
		return nil, err
	}
	files, err := repo.WalkTree(tree, []string{dir})
	if err != nil {
		return nil, err
	}
	history, err := repo.FileHistory(ctx, tip, dir, TrailerKey)
	if err != nil {
		return nil, err
	}
	person, existed := authorship(history)
	st := &state{tip: tip, tree: tree, articles: map[string]*held{}, broken: map[string]string{}, deleted: map[string]bool{}, markers: map[string]bool{}}
	present := map[string]bool{}
	for _, f := range files {
		present[f.Path] = true
		slug, ok := st.placeFile(f)
		if !ok {
			continue
		}
		if err := st.readArticle(repo, f, slug, person[f.Path], cached, readOnly); err != nil {
			return nil, err
		}
	}
	st.findGone(existed, present)
	st.findLastText(history)
	return st, nil
}

// findLastText notes each deleted article's last version: the way back.
func (st *state) findLastText(history []staterepo.FileChange) {
	st.lastText = map[string]staterepo.Hash{}
	for _, c := range history {
		if _, slug, ok := changelog.SplitArticlePath(c.Path); ok && !c.Blob.IsZero() && st.deleted[slug] && st.lastText[slug].IsZero() {
			st.lastText[slug] = c.Blob
		}
	}
}

// authorship: a person wrote a version in a commit without planq's trailer.
func authorship(history []staterepo.FileChange) (person, existed map[string]bool) {
	person, existed = map[string]bool{}, map[string]bool{}
	for _, c := range history {
		if c.Blob.IsZero() {
			continue
		}
		existed[c.Path] = true
		if c.Trailer == "" {
			person[c.Path] = true
		}
	}
	return person, existed
}

// placeFile notes f unless it is at an article's path (ok), and its slug.
func (st *state) placeFile(f staterepo.File) (slug string, ok bool) {
	if f.Path == IndexPath {
		st.index = f.Blob
		return "", false
	}
	if rest, ok := strings.CutPrefix(f.Path, deletedDir); ok {
		if topic, slug, ok := strings.Cut(rest, "/"); ok && changelog.SlugProblem(topic) == "" && changelog.SlugProblem(slug) == "" {
			st.deleted[slug], st.markers[f.Path] = true, true
		}
		return "", false
	}
	if _, slug, ok = changelog.SplitArticlePath(f.Path); ok {
		return slug, true
	}
	switch {
	case !strings.HasSuffix(f.Path, ".md") || strings.HasSuffix(f.Path, "/README.md"):
	case strings.Count(f.Path, "/") == 2:
		st.problems = append(st.problems, Problem{Path: f.Path, Problem: "is no article's path: knowledge/<topic>/<slug>.md, in lower-case letters, digits and hyphens"})
	case !strings.Contains(f.Path, "/."):
		// Said, not read: an article is one file per slug, and a folder
		// below its topic would make two of the same name.
		st.problems = append(st.problems, Problem{Path: f.Path, Problem: "is nested below its topic: planq reads knowledge/<topic>/<slug>.md alone; move it up to make it an article"})
	}
	return "", false
}

func (st *state) readArticle(repo staterepo.Reads, f staterepo.File, slug string, person bool, cached map[staterepo.Hash]readmodel.ArticleFile, readOnly bool) error {
	if c, ok := cached[f.Blob]; ok && (readOnly || c.Article.CuratedBy == changelog.CuratedAuto && !person) && st.articles[slug] == nil {
		st.articles[slug] = &held{a: c.Article, path: f.Path, blob: f.Blob, data: c.Text, person: person}
		return nil
	}
	data, err := repo.ReadBlob(f.Blob)
	if err != nil {
		return err
	}
	a, err := changelog.ParseArticle(f.Path, data)
	if err == nil && st.articles[slug] != nil {
		err = &changelog.ParseError{Path: f.Path, Msg: "its slug is " + st.articles[slug].path + "'s already: a slug names one article"}
	}
	if err != nil {
		st.broken[slug] = f.Path
		st.problems = append(st.problems, Problem{Path: f.Path, Problem: problemOf(err)})
		return nil
	}
	st.articles[slug] = &held{a: a, path: f.Path, blob: f.Blob, data: data, person: person}
	return nil
}

// findGone notes the articles a person deleted (see state.gone).
func (st *state) findGone(existed, present map[string]bool) {
	var gone []string
	for p := range existed {
		topic, slug, ok := changelog.SplitArticlePath(p)
		if ok && !present[p] && st.articles[slug] == nil && st.broken[slug] == "" && !st.markers[DeletedPath(topic, slug)] {
			gone = append(gone, p)
		}
	}
	slices.Sort(gone)
	for _, p := range gone {
		topic, slug, _ := changelog.SplitArticlePath(p)
		st.gone = append(st.gone, [2]string{topic, slug})
		st.deleted[slug] = true
	}
}

// deletedWhere is the file that remembers that the article slug was
// deleted ("" when git rm deleted it and no update has remembered it
// yet), and the blob of its last version (zero when history holds none).
func (st *state) deletedWhere(slug string) (string, staterepo.Hash) {
	var marker string
	for p := range st.markers {
		if strings.HasSuffix(p, "/"+slug) && (marker == "" || p < marker) {
			marker = p
		}
	}
	return marker, st.lastText[slug]
}

// slugs lists the articles' slugs, sorted.
func (st *state) slugs() []string {
	out := make([]string, 0, len(st.articles))
	for s := range st.articles {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// mentioned are the record IDs an article cites: its sources, and any its
// text names.
func (h *held) mentioned() map[string]bool {
	ids := map[string]bool{}
	for _, s := range h.a.Sources {
		ids[s] = true
	}
	idsIn(h.a.Body, func(id string) { ids[id] = true })
	return ids
}

// idsIn calls add with each record ID text names: "pq-" and 4 to 64
// lower-case hex digits, a whole word (what `\bpq-[0-9a-f]{4,64}\b`
// matches, scanned by hand: a regular expression over a thousand articles
// costs a third of a second).
func idsIn(text string, add func(string)) {
	for i := 0; i < len(text); {
		j := strings.Index(text[i:], "pq-")
		if j < 0 {
			return
		}
		start := i + j
		end := start + 3
		for end < len(text) && (text[end] >= '0' && text[end] <= '9' || text[end] >= 'a' && text[end] <= 'f') {
			end++
		}
		if n := end - start - 3; n >= 4 && n <= 64 && !wordAt(text, start-1) && !wordAt(text, end) {
			add(text[start:end])
		}
		i = max(end, start+1)
	}
}

func wordAt(text string, i int) bool {
	if i < 0 || i >= len(text) {
		return false
	}
	c := text[i]
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// problemOf is a parse error without its path: "line N: what".
func problemOf(err error) string {
	var pe *changelog.ParseError
	if !errors.As(err, &pe) {
		return err.Error()
	}
	if pe.Line > 0 {
		return fmt.Sprintf("line %d: %s", pe.Line, pe.Msg)
	}
	return pe.Msg
}
