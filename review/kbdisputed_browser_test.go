package review

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/session"
)

// TestPageListsDisputedArticles: the page's promote brings the knowledge
// base in step (its answer says how), and an article whose sources
// contradict each other is listed as disputed with both sides, by the API
// and on the page a browser draws, with the command that settles it.
func TestPageListsDisputedArticles(t *testing.T) {
	f := newFixture(t)
	api := "/api/learnings/demo"
	var ids []string
	for _, text := range []string{"The timeout is 5s.", "The timeout is 9s."} {
		rec, err := changelog.NewLearning(changelog.LearningInput{Text: text, Type: changelog.TypeReference, Domain: "net", Subject: "timeout"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.agent.Write(context.Background(), rec, agent.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, rec.ID)
		res := f.request(t, "POST", api+"/agents/auth/promote", "", map[string]string{"Origin": f.base})
		if res.StatusCode != http.StatusOK {
			t.Fatalf("promote: %d", res.StatusCode)
		}
		type promoted struct {
			Knowledge *struct {
				Commit string `json:"commit"`
				Error  string `json:"error"`
			} `json:"knowledge"`
		}
		if got := decode[promoted](t, res); got.Knowledge == nil || got.Knowledge.Commit == "" || got.Knowledge.Error != "" {
			t.Fatalf("the promote's answer says no knowledge base update: %+v", got.Knowledge)
		}
	}
	p := decode[session.Promotion](t, f.request(t, "GET", api+"/promotion", "", nil))
	if len(p.DisputedArticles) != 1 {
		t.Fatalf("disputed articles: %+v", p.DisputedArticles)
	}
	d := p.DisputedArticles[0]
	if d.Path != "knowledge/project/timeout.md" || len(d.Sides) != 2 ||
		!strings.HasPrefix(d.Sides[0], "The timeout is 5s. ("+ids[0]) || !strings.HasPrefix(d.Sides[1], "The timeout is 9s. ("+ids[1]) {
		t.Fatalf("the disputed article: %+v", d)
	}

	pg := openPage(t, f)
	sel := `article.kb-dispute[data-slug="timeout"]`
	if !pg.shown(sel) {
		t.Fatal("the page does not show the disputed article")
	}
	text := pg.text(sel)
	for _, want := range []string{"knowledge/project/timeout.md", "The timeout is 5s. (" + ids[0], "The timeout is 9s. (" + ids[1], "planq kb resolve timeout --keep SOURCE"} {
		if !strings.Contains(text, want) {
			t.Errorf("the disputed article on the page lacks %q:\n%s", want, text)
		}
	}
	if promo := pg.text("#promotion"); strings.Contains(promo, "No article of the knowledge base is disputed") || !strings.Contains(promo, "1 disputed in the knowledge base") {
		t.Errorf("the promotion section does not point at the disputed article:\n%s", promo)
	}
	if n := evaluate[int](pg, `[...document.querySelectorAll("h2, h3")].filter((h) => h.textContent.trim() === "Disputed articles").length`); n != 1 {
		t.Errorf("%d headings say Disputed articles, want one", n)
	}
}
