package readmodel

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// KnowledgeTrailer is the trailer planq's commits of the knowledge base
// carry ("Planq-Knowledge: update"): a version of an article that a
// commit without it wrote is a person's.
const KnowledgeTrailer = "Planq-Knowledge"

// Paths of the knowledge base on global.
var (
	knowledgeDir        = changelog.KindArticle.Dir()
	KnowledgeIndexPath  = knowledgeDir + "/_index.md"
	knowledgeDeletedDir = knowledgeDir + "/.deleted/"
)

// KnowledgeDeletedPath is the file that remembers that the article slug
// of topic was deleted.
func KnowledgeDeletedPath(topic, slug string) string { return knowledgeDeletedDir + topic + "/" + slug }

// ArticleProblem is a file of the knowledge base planq could not read, or
// an article it could not write, and why.
type ArticleProblem struct {
	Path    string `json:"path"`
	Problem string `json:"problem"`
}

// HeldArticle is an article on global as planq found it.
type HeldArticle struct {
	Article *changelog.Article
	Path    string
	Blob    staterepo.Hash
	Data    []byte
	// Person: a person wrote a version of it (a commit without planq's
	// trailer), so planq never rewrites it.
	Person bool
}

// Personal reports whether a person wrote or curated the article: planq
// never rewrites it.
func (h *HeldArticle) Personal() bool {
	return h.Person || h.Article.CuratedBy != changelog.CuratedAuto
}

// KnowledgeBase is the knowledge base on global at one commit, and what
// its history says about it: what the kb commands read, and what its
// writers change.
type KnowledgeBase struct {
	Tip, Tree staterepo.Hash
	Articles  map[string]*HeldArticle // by slug
	// Broken are the files at an article's path that are no article, by
	// slug: planq never writes over them.
	Broken   map[string]string
	Problems []ArticleProblem
	// Deleted are the slugs of deleted articles, Markers the paths of the
	// files that remember them.
	Deleted map[string]bool
	Markers map[string]bool
	// LastText is the blob of a deleted article's last version, by slug:
	// the way back.
	LastText map[string]staterepo.Hash
	Index    staterepo.Hash
	// Gone are the articles that were on global once and are no more,
	// with no file that remembers their deletion: a person deleted them.
	Gone [][2]string // topic, slug
}

// ReadKnowledgeBase reads the knowledge base as the commit tip holds it: its
// articles, what cannot be read, the deletions remembered, and who wrote
// each article last (from history). cached, when given, holds articles
// already parsed, by blob (the read model's), which keeps what an article
// says and the file's bytes, not the keys of other tools its frontmatter
// may hold: an article planq alone wrote is taken from it, since planq
// renders only those again; with readOnly, every article is, for a caller
// that renders none of the others (an update, which appends to a person's
// article as its bytes are). The rest are read and parsed.
func ReadKnowledgeBase(ctx context.Context, repo staterepo.Reads, tip staterepo.Hash, cached map[staterepo.Hash]ArticleFile, readOnly bool) (*KnowledgeBase, error) {
	tree, err := repo.TreeOf(tip)
	if err != nil {
		return nil, err
	}
	files, err := repo.WalkTree(tree, []string{knowledgeDir})
	if err != nil {
		return nil, err
	}
	history, err := repo.FileHistory(ctx, tip, knowledgeDir, KnowledgeTrailer)
	if err != nil {
		return nil, err
	}
	person, existed := authorship(history)
	st := &KnowledgeBase{Tip: tip, Tree: tree, Articles: map[string]*HeldArticle{}, Broken: map[string]string{}, Deleted: map[string]bool{}, Markers: map[string]bool{}}
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
func (st *KnowledgeBase) findLastText(history []staterepo.FileChange) {
	st.LastText = map[string]staterepo.Hash{}
	for _, c := range history {
		if _, slug, ok := changelog.SplitArticlePath(c.Path); ok && !c.Blob.IsZero() && st.Deleted[slug] && st.LastText[slug].IsZero() {
			st.LastText[slug] = c.Blob
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
func (st *KnowledgeBase) placeFile(f staterepo.File) (slug string, ok bool) {
	if f.Path == KnowledgeIndexPath {
		st.Index = f.Blob
		return "", false
	}
	if rest, ok := strings.CutPrefix(f.Path, knowledgeDeletedDir); ok {
		if topic, slug, ok := strings.Cut(rest, "/"); ok && changelog.SlugProblem(topic) == "" && changelog.SlugProblem(slug) == "" {
			st.Deleted[slug], st.Markers[f.Path] = true, true
		}
		return "", false
	}
	if _, slug, ok = changelog.SplitArticlePath(f.Path); ok {
		return slug, true
	}
	switch {
	case !strings.HasSuffix(f.Path, ".md") || strings.HasSuffix(f.Path, "/README.md"):
	case strings.Count(f.Path, "/") == 2:
		st.Problems = append(st.Problems, ArticleProblem{Path: f.Path, Problem: "is no article's path: knowledge/<topic>/<slug>.md, in lower-case letters, digits and hyphens"})
	case !strings.Contains(f.Path, "/."):
		// Said, not read: an article is one file per slug, and a folder
		// below its topic would make two of the same name.
		st.Problems = append(st.Problems, ArticleProblem{Path: f.Path, Problem: "is nested below its topic: planq reads knowledge/<topic>/<slug>.md alone; move it up to make it an article"})
	}
	return "", false
}

func (st *KnowledgeBase) readArticle(repo staterepo.Reads, f staterepo.File, slug string, person bool, cached map[staterepo.Hash]ArticleFile, readOnly bool) error {
	if c, ok := cached[f.Blob]; ok && (readOnly || c.Article.CuratedBy == changelog.CuratedAuto && !person) && st.Articles[slug] == nil {
		st.Articles[slug] = &HeldArticle{Article: c.Article, Path: f.Path, Blob: f.Blob, Data: c.Text, Person: person}
		return nil
	}
	data, err := repo.ReadBlob(f.Blob)
	if err != nil {
		return err
	}
	a, err := changelog.ParseArticle(f.Path, data)
	if err == nil && st.Articles[slug] != nil {
		err = &changelog.ParseError{Path: f.Path, Msg: "its slug is " + st.Articles[slug].Path + "'s already: a slug names one article"}
	}
	if err != nil {
		st.Broken[slug] = f.Path
		st.Problems = append(st.Problems, ArticleProblem{Path: f.Path, Problem: problemOf(err)})
		return nil
	}
	st.Articles[slug] = &HeldArticle{Article: a, Path: f.Path, Blob: f.Blob, Data: data, Person: person}
	return nil
}

// findGone notes the articles a person deleted (see state.gone).
func (st *KnowledgeBase) findGone(existed, present map[string]bool) {
	var gone []string
	for p := range existed {
		topic, slug, ok := changelog.SplitArticlePath(p)
		if ok && !present[p] && st.Articles[slug] == nil && st.Broken[slug] == "" && !st.Markers[KnowledgeDeletedPath(topic, slug)] {
			gone = append(gone, p)
		}
	}
	slices.Sort(gone)
	for _, p := range gone {
		topic, slug, _ := changelog.SplitArticlePath(p)
		st.Gone = append(st.Gone, [2]string{topic, slug})
		st.Deleted[slug] = true
	}
}

// DeletedWhere is the file that remembers that the article slug was
// deleted ("" when git rm deleted it and no update has remembered it
// yet), and the blob of its last version (zero when history holds none).
func (st *KnowledgeBase) DeletedWhere(slug string) (string, staterepo.Hash) {
	var marker string
	for p := range st.Markers {
		if strings.HasSuffix(p, "/"+slug) && (marker == "" || p < marker) {
			marker = p
		}
	}
	return marker, st.LastText[slug]
}

// Slugs lists the articles' slugs, sorted.
func (st *KnowledgeBase) Slugs() []string {
	out := make([]string, 0, len(st.Articles))
	for s := range st.Articles {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// Mentioned are the record IDs an article cites: its sources, and any its
// text names.
func (h *HeldArticle) Mentioned() map[string]bool {
	ids := map[string]bool{}
	for _, s := range h.Article.Sources {
		ids[s] = true
	}
	IDsIn(h.Article.Body, func(id string) { ids[id] = true })
	return ids
}

// IDsIn calls add with each record ID text names: "pq-" and 4 to 64
// lower-case hex digits, a whole word (what `\bpq-[0-9a-f]{4,64}\b`
// matches, scanned by hand: a regular expression over a thousand articles
// costs a third of a second).
func IDsIn(text string, add func(string)) {
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

// KnowledgeBase is the knowledge base at global's tip, its articles from
// the read model's cache of them: a reader renders none again.
func (h *Handle) KnowledgeBase(ctx context.Context) (*KnowledgeBase, error) {
	tip, err := h.repo.Tip(project.GlobalBranch)
	if err != nil {
		return nil, err
	}
	cached, err := h.Records.ArticleFiles(tip)
	if err != nil {
		return nil, err
	}
	return ReadKnowledgeBase(ctx, h.repo, tip, cached, true)
}
