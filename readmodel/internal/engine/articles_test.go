package engine

import (
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testrecords"
	"github.com/planq-dev/planq/search"
	"github.com/planq-dev/planq/staterepo"
)

func articleFile(t *testing.T, topic, slug, title, body string) (string, []byte) {
	t.Helper()
	a, err := changelog.NewArticle(changelog.ArticleInput{Topic: topic, Slug: slug, Title: title, Description: "About " + title,
		Updated: time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC), Confidence: changelog.ConfidenceMedium, Body: body})
	if err != nil {
		t.Fatal(err)
	}
	data, err := changelog.RenderArticle(a)
	if err != nil {
		t.Fatal(err)
	}
	return a.Path(), data
}

// knowledgeRepo is Samples on global with a knowledge base: three
// articles, the index, a deletion's marker and a file that is no article.
func knowledgeRepo(t *testing.T, deployBody string) *staterepo.Repo {
	files := testrecords.Rendered(t, testrecords.Samples(t))
	for _, a := range [][3]string{
		{"decisions", "jwt-signing", "Sign tokens with RS256 (pq-0000000001)"},
		{"operations", "deploy", deployBody},
		{"conventions", "errors", "Wrap errors with failed to."},
	} {
		p, data := articleFile(t, a[0], a[1], a[1], a[2])
		files[p] = data
	}
	files["knowledge/_index.md"] = []byte("# Knowledge base\n")
	files["knowledge/.deleted/conventions/sessions"] = []byte("deleted\n")
	files["knowledge/conventions/broken.md"] = []byte("no frontmatter\n")
	return testrecords.RepoWith(t, files)
}

func articlePaths(a *Articles) []string {
	var out []string
	for _, f := range a.List {
		out = append(out, f.Path)
	}
	return out
}

// TestArticlesAreKeptPerTree: the knowledge base is read from git once per
// tree of knowledge/, then from the cache without git; a new tree parses
// only what changed; a damaged file is built again, never trusted.
func TestArticlesAreKeptPerTree(t *testing.T) {
	repo := knowledgeRepo(t, "Deploy from a green main.")
	cacheDir := t.TempDir()
	reads := 0
	rd := counting(repo, cacheDir, &reads)
	a, err := rd.GlobalArticles()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"knowledge/conventions/errors.md", "knowledge/decisions/jwt-signing.md", "knowledge/operations/deploy.md"}
	if got := articlePaths(a); len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("articles %q, want %q", got, want)
	}
	if len(a.Problems) != 1 || a.Problems[0].Path != "knowledge/conventions/broken.md" {
		t.Errorf("problems %v, want the file that is no article", a.Problems)
	}
	if reads != 4 {
		t.Errorf("first read took %d blobs from git, want the 4 article files", reads)
	}
	deploy := a.List[2]
	if deploy.Body != "Deploy from a green main." || deploy.Title != "deploy" || deploy.Status != changelog.StatusCurrent || len(deploy.Text) == 0 {
		t.Errorf("deploy read as %+v", deploy)
	}

	// Another process: from the cache, no git.
	reads = 0
	again, err := counting(repo, cacheDir, &reads).GlobalArticles()
	if err != nil {
		t.Fatal(err)
	}
	if reads != 0 {
		t.Errorf("a warm read took %d blobs from git", reads)
	}
	if got := again.List[2]; got.Body != deploy.Body || string(got.Text) != string(deploy.Text) || !got.Updated.Equal(deploy.Updated) ||
		got.Description != deploy.Description || got.Blob != deploy.Blob || len(again.Problems) != 1 {
		t.Errorf("cached article differs: %+v, want %+v", got, deploy)
	}

	// A new tree in which one article changed: that one is parsed (and the
	// file that does not read, whose problem is not kept), the rest taken
	// from the newest file.
	changed := knowledgeRepo(t, "Deploy from a tag.")
	reads = 0
	next, err := counting(changed, cacheDir, &reads).GlobalArticles()
	if err != nil {
		t.Fatal(err)
	}
	if reads != 2 || next.List[2].Body != "Deploy from a tag." {
		t.Errorf("new tree: read %d blobs, deploy says %q; want 2 and the new text", reads, next.List[2].Body)
	}

	// Damaged: built again from git.
	files, _ := filepath.Glob(filepath.Join(cacheDir, "articles", "*.art"))
	if len(files) != 2 {
		t.Fatalf("article files %q, want one per tree", files)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		data[len(data)/2] ^= 0xff
		if err := os.WriteFile(f, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	reads = 0
	rebuilt, err := counting(repo, cacheDir, &reads).GlobalArticles()
	if err != nil {
		t.Fatal(err)
	}
	if reads == 0 || rebuilt.List[2].Body != "Deploy from a green main." {
		t.Errorf("damaged cache: read %d blobs, deploy says %q", reads, rebuilt.List[2].Body)
	}
}

// TestSearchFindsArticles: an article is searched like a record when its
// kind is asked for, never otherwise.
func TestSearchFindsArticles(t *testing.T) {
	rd := open(knowledgeRepo(t, "Deploy from a green main."), t.TempDir())
	tips, err := rd.Tips()
	if err != nil {
		t.Fatal(err)
	}
	ask := func(kinds []changelog.Kind, q string) Found {
		t.Helper()
		found, err := rd.Store.Search(context.Background(), tips, kinds, nil, search.Query{Phrasings: []string{q}, Limit: 8}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return found
	}
	records := changelog.KindsWhere(func(s *changelog.Spec) bool { return s.Searched })
	found := ask(append(records, changelog.KindArticle), "green main deploy")
	if len(found.Hits) == 0 || found.Hits[0].Article == nil || found.Hits[0].Article.Path != "knowledge/operations/deploy.md" || found.Hits[0].Record != nil {
		t.Fatalf("hits %+v, want the deploy article first", found.Hits)
	}
	if len(found.Problems) != 1 {
		t.Errorf("problems %v, want the file that is no article", found.Problems)
	}
	for _, h := range ask(records, "green main deploy").Hits {
		if h.Article != nil {
			t.Errorf("records alone asked for, article %s found", h.Article.Path)
		}
	}
	only := ask([]changelog.Kind{changelog.KindArticle}, "RS256")
	if len(only.Hits) != 1 || only.Hits[0].Article == nil || only.Hits[0].Article.Path != "knowledge/decisions/jwt-signing.md" {
		t.Errorf("articles alone: %+v", only.Hits)
	}
}

// An article's body is kept as where it is in its file's text: read back,
// it is the body; an offset past the text (a damaged file) fails the
// read, it never slices out of bounds.
func TestArticleBodyIsKeptAsItsPlaceInTheText(t *testing.T) {
	body := "# Summary\n\n" + strings.TrimSpace(strings.Repeat("Said once. ", 100))
	text := "---\ntitle: T\n---\n\n" + body + "\n"
	a := &changelog.Article{Title: "T", Slug: "t", Topic: "project", Body: body}
	f := ArticleFile{Article: a, Path: "knowledge/project/t.md", Text: []byte(text)}
	b := appendArticle(nil, f)
	if len(b) >= len(text)+100 {
		t.Errorf("the body is kept again beside the text: %d bytes for a %d-byte file", len(b), len(text))
	}
	d := &decoder{b: b}
	if got := decodeArticle(d, f.Path, f.Blob); d.err != nil || got.Body != a.Body || string(got.Text) != text {
		t.Fatalf("read back: %v, body %q", d.err, got.Body)
	}
	for _, at := range []uint64{uint64(len(text)) + 2, 1<<64 - 1} {
		bad := appendString(nil, "T") // title, then description and topic
		for range 2 {
			bad = appendString(bad, "")
		}
		bad = binary.AppendUvarint(bad, 0) // tags
		bad = binary.AppendVarint(bad, 0)
		bad = binary.AppendVarint(bad, 0)
		bad = binary.AppendUvarint(bad, 0) // sources
		for range 4 {                      // confidence, status, curated_by, slug
			bad = appendString(bad, "")
		}
		bad = binary.AppendUvarint(bad, at)
		bad = binary.AppendUvarint(bad, 5)
		bad = appendString(bad, text)
		d := &decoder{b: bad}
		decodeArticle(d, f.Path, f.Blob)
		if d.err == nil {
			t.Errorf("a body at %d of a %d-byte text read without an error", at, len(text))
		}
	}
}
