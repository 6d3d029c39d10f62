package review

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/knowledge"
	"github.com/planq-dev/planq/internal/testkit/testgit"
)

// kbFixture is the review page's fixture with a knowledge base on global:
// the article database (a decision, current) and the article timeout,
// disputed by two learnings that say different things. ids are the
// records: the decision, then the two learnings.
func kbFixture(t *testing.T) (*fixture, []string) {
	t.Helper()
	f := newFixture(t)
	ctx := context.Background()
	dec, err := changelog.NewDecision(changelog.DecisionInput{Decision: "Use PostgreSQL", Rationale: "We know it well", Subject: "database"})
	if err != nil {
		t.Fatal(err)
	}
	recs := []*changelog.Record{dec}
	for _, text := range []string{"The timeout is 5s.", "The timeout is 9s."} {
		rec, err := changelog.NewLearning(changelog.LearningInput{Text: text, Type: changelog.TypeReference, Domain: "net", Subject: "timeout"})
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
	}
	var ids []string
	for i, rec := range recs {
		if _, err := f.agent.Write(ctx, rec, agent.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, rec.ID)
		if i == 0 {
			continue // the decision goes with the first learning
		}
		if res := f.request(t, "POST", "/api/learnings/demo/agents/auth/promote", "", map[string]string{"Origin": f.base}); res.StatusCode != http.StatusOK {
			t.Fatalf("promote: %d", res.StatusCode)
		}
	}
	return f, ids
}

// TestBrowserShowsEditsAndResolvesArticles: the Knowledge section lists
// the index by topic; an article opens rendered from its Markdown, its
// record IDs linked to its sources, each with its record's line; Edit
// commits the person's text to global as theirs (no planq trailer), and
// the page shows it rendered; a disputed article's Keep this side settles
// it as 'planq kb resolve' does.
func TestBrowserShowsEditsAndResolvesArticles(t *testing.T) {
	f, ids := kbFixture(t)
	pg := openPage(t, f)
	pg.do(chromedp.Navigate(f.url + "&article=database"))

	row := `#knowledge table.kb-index tr[data-slug="database"]`
	if text := pg.text(row); !strings.Contains(text, "database") || !strings.Contains(text, "Use PostgreSQL") || !strings.Contains(text, "current") || !strings.Contains(text, "medium") {
		t.Errorf("the index row: %q", text)
	}
	if text := pg.text("#knowledge"); !strings.Contains(text, "decisions") || !strings.Contains(text, "project") {
		t.Errorf("the index lacks its topics:\n%s", text)
	}
	art := `article.kb-article[data-slug="database"]`
	if h := pg.text(art + " .kb-body h1"); h != "Decision" {
		t.Errorf("the body's first heading, rendered: %q", h)
	}
	link := art + ` .kb-body a.source[href="#source-` + ids[0] + `"]`
	if !pg.shown(link) {
		t.Errorf("the body does not link %s to its source", ids[0])
	}
	if src := pg.text(art + " li#source-" + ids[0]); !strings.Contains(src, "current") || !strings.Contains(src, "Use PostgreSQL: We know it well") {
		t.Errorf("the source: %q", src)
	}

	// Edit, as the person.
	file := evaluate[string](pg, `document.querySelector('`+art+` textarea.kb-edit').value`)
	if !strings.HasPrefix(file, "---\ntype: article\n") {
		t.Fatalf("the textarea holds %q", file)
	}
	edited := strings.TrimRight(file, "\n") + "\n\nWe chose it in **2024**.\n"
	pg.do(chromedp.Click(chromedp.CSS(art+" button.kb-edit-open")),
		chromedp.WaitVisible(chromedp.CSS(art+" textarea.kb-edit")),
		chromedp.SetValue(chromedp.CSS(art+" textarea.kb-edit"), edited),
		chromedp.Click(chromedp.CSS(art+" button.kb-save")),
		chromedp.WaitVisible(chromedp.CSS(art+" .kb-body strong")))
	if s := pg.text(art + " .kb-body strong"); s != "2024" {
		t.Errorf("the edit, rendered: %q", s)
	}
	if meta := pg.text(art); !strings.Contains(meta, "edited by a person") {
		t.Errorf("the article after the edit does not say a person edited it:\n%s", meta)
	}
	state := f.store.Project.StateRepo()
	if got := testgit.Run(t, state, "log", "-1", "--format=%an <%ae>%n%B", "global"); !strings.HasPrefix(got, "Test User <test@example.com>\nkb edit database") ||
		strings.Contains(got, knowledge.TrailerKey) {
		t.Errorf("the edit's commit:\n%s", got)
	}
	if body := testgit.Run(t, state, "show", "global:knowledge/decisions/database.md"); !strings.Contains(body, "We chose it in **2024**.") {
		t.Errorf("the article on global:\n%s", body)
	}

	// Again, from the address the index links to: it is the page's own
	// already, and Save still shows the article as committed.
	pg.do(chromedp.Navigate(f.base + "/?article=database#knowledge"))
	file = evaluate[string](pg, `document.querySelector('`+art+` textarea.kb-edit').value`)
	pg.do(chromedp.Click(chromedp.CSS(art+" button.kb-edit-open")),
		chromedp.WaitVisible(chromedp.CSS(art+" textarea.kb-edit")),
		chromedp.SetValue(chromedp.CSS(art+" textarea.kb-edit"), strings.TrimRight(file, "\n")+"\n\nReviewed in **2025**.\n"),
		chromedp.Click(chromedp.CSS(art+" button.kb-save")),
		chromedp.WaitVisible(`//article[@data-slug="database"]//div[contains(@class,"kb-body")]//strong[text()="2025"]`))
	if pg.shown(art+" textarea.kb-edit") || !pg.shown(art+" button.kb-edit-open") {
		t.Error("after Save from the index's address, the editor is still open")
	}
	if blob := testgit.Run(t, state, "rev-parse", "global:knowledge/decisions/database.md"); evaluate[string](pg, `document.querySelector('`+art+`').dataset.blob`) != blob {
		t.Error("after Save from the index's address, the page holds an older version of the article")
	}

	// Resolve, keeping the later side.
	dispute := `article.kb-dispute[data-slug="timeout"]`
	if text := pg.text(dispute); !strings.Contains(text, "The timeout is 5s. ("+ids[1]) || !strings.Contains(text, "The timeout is 9s. ("+ids[2]) {
		t.Errorf("the disputed article lacks a side:\n%s", text)
	}
	pg.do(chromedp.Click(chromedp.CSS(dispute+` button.kb-resolve[data-keep="`+ids[2]+`"]`)),
		chromedp.WaitVisible(chromedp.CSS(dispute+" .result.ok")))
	if r := pg.text(dispute + " .result"); r != "Kept "+ids[2]+" over "+ids[1]+": the article is current (commit "+
		testgit.Run(t, state, "rev-parse", "global")[:12]+")" {
		t.Errorf("the page says %q", r)
	}
	shown, err := knowledge.Show(context.Background(), f.store.Handle, "timeout")
	if err != nil || shown.Status != changelog.StatusCurrent || strings.Contains(shown.Body, "# Conflict") || !strings.Contains(shown.Body, "kept "+ids[2]+" over "+ids[1]) {
		t.Errorf("the article after resolve: %v\n%+v", err, shown)
	}
	pg.do(chromedp.Navigate(f.base + "/"))
	if pg.shown(dispute) {
		t.Error("the page, loaded again, still lists the settled article as disputed")
	}
}

// TestKnowledgeAPIRefusals: an edit over a version the person did not
// see, a body that is not the request's shape, a side that is none of
// the conflict's, and another origin are refused, and global stays where
// it was.
func TestKnowledgeAPIRefusals(t *testing.T) {
	f, _ := kbFixture(t)
	state := f.store.Project.StateRepo()
	tip := testgit.Run(t, state, "rev-parse", "global")
	api := "/api/learnings/demo/articles/"
	own := map[string]string{"Origin": f.base, "Content-Type": "application/json"}
	view := decode[articleView](t, f.request(t, "GET", api+"database", "", nil))
	if view.Path != "knowledge/decisions/database.md" || view.Blob == "" || !strings.HasPrefix(view.File, "---\n") || len(view.Sources) != 1 {
		t.Fatalf("GET article: %+v", view)
	}
	for _, c := range []struct {
		name, method, path, body string
		header                   map[string]string
		status                   int
		want                     string
	}{
		{"a stale version", "POST", api + "database/edit", `{"text": "x", "blob": "0000000000000000000000000000000000000000"}`, own, http.StatusConflict, "changed on global since you opened it"},
		{"text that does not parse", "POST", api + "database/edit", `{"text": "no frontmatter", "blob": "` + view.Blob + `"}`, own, http.StatusBadRequest, "frontmatter"},
		{"an unknown key", "POST", api + "database/edit", `{"text": "x", "blob": "x", "force": true}`, own, http.StatusBadRequest, "the body is not"},
		{"no such article", "GET", api + "nothing-here", "", nil, http.StatusNotFound, "is not on global"},
		{"a side that is none", "POST", api + "timeout/resolve", `{"keep": "pq-0123456789"}`, own, http.StatusBadRequest, "is not a side of the conflict"},
		{"another origin", "POST", api + "timeout/resolve", `{"keep": "pq-0123456789"}`, map[string]string{"Origin": "http://evil.example"}, http.StatusForbidden, "refused"},
	} {
		res := f.request(t, c.method, c.path, c.body, c.header)
		var msg strings.Builder
		buf := make([]byte, 4096)
		n, _ := res.Body.Read(buf)
		msg.Write(buf[:n])
		if res.StatusCode != c.status || !strings.Contains(msg.String(), c.want) {
			t.Errorf("%s: %d %s", c.name, res.StatusCode, msg.String())
		}
	}
	if now := testgit.Run(t, state, "rev-parse", "global"); now != tip {
		t.Error("a refused request moved global")
	}
}
