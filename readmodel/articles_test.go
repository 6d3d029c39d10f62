package readmodel

import (
	"slices"
	"testing"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testrecords"
	"github.com/planq-dev/planq/project"
)

// ArticleFiles hands out each article parsed and its file, by blob, and
// each call's articles are the caller's own: changing one changes neither
// the read model's nor the next caller's.
func TestArticleFilesAreTheCallersOwn(t *testing.T) {
	a, err := changelog.NewArticle(changelog.ArticleInput{Topic: "decisions", Slug: "jwt-signing", Title: "JWT signing",
		Description: "How tokens are signed.", Sources: []string{"pq-1234567890"}, Confidence: changelog.ConfidenceMedium,
		Updated: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), Body: "# Decision\n\nRS256 (pq-1234567890).\n"})
	if err != nil {
		t.Fatal(err)
	}
	data, err := changelog.RenderArticle(a)
	if err != nil {
		t.Fatal(err)
	}
	files := testrecords.Rendered(t, nil)
	files[a.Path()] = data
	repo := testrecords.RepoWith(t, files)
	tip, err := repo.Tip(project.GlobalBranch)
	if err != nil {
		t.Fatal(err)
	}
	rd := Open(repo, t.TempDir())
	got, err := rd.ArticleFiles(tip)
	if err != nil || len(got) != 1 {
		t.Fatalf("ArticleFiles: %d articles, err %v; want 1", len(got), err)
	}
	for _, f := range got {
		if string(f.Text) != string(data) || f.Article.Title != "JWT signing" || !slices.Equal(f.Article.Sources, a.Sources) {
			t.Fatalf("the article as the read model holds it: %+v", f.Article)
		}
		f.Article.Sources[0], f.Article.Title, f.Text[0] = "changed", "changed", 'X'
	}
	again, err := rd.ArticleFiles(tip)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range again {
		if f.Article.Sources[0] != "pq-1234567890" || f.Article.Title != "JWT signing" || f.Text[0] != '-' {
			t.Errorf("a caller's change reached the read model: %+v, %q", f.Article, f.Text[:10])
		}
	}
}
