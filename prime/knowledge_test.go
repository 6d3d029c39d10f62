package prime

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/readmodel"
)

func article(topic, slug, description, body string) readmodel.Article {
	return readmodel.Article{Path: changelog.ArticlePath(topic, slug), Topic: topic, Slug: slug, Title: slug,
		Description: description, Status: changelog.StatusCurrent, Confidence: changelog.ConfidenceMedium, Updated: t0, Body: body}
}

func hitOf(a readmodel.Article) readmodel.Hit {
	return readmodel.Hit{Path: a.Path, Kind: changelog.KindArticle, Title: a.Title, Status: a.Status, Time: a.Updated}
}

// withKnowledge is full() with a knowledge base: a preference, the task's
// article, others, a deprecated one.
func withKnowledge() *Input {
	in := full()
	jwt := article("decisions", "jwt-signing", "Sign tokens with RS256", "# Decision\n\nSign tokens with RS256 (pq-d1)\n\n"+strings.Repeat("Keys rotate every 90 days. ", 20))
	style := article("preferences", "style", "How we write Go", "We wrap errors with failed to.")
	deploy := article("operations", "deploy", "Deploys need a green main", "Deploy from main only. "+strings.Repeat("More on deploys. ", 20))
	gone := article("conventions", "sessions", "Sessions live in Redis", "Gone.")
	gone.Status = changelog.StatusDeprecated
	local := article("local-notes", "misc", "Odds and ends", "Misc.")
	in.Knowledge = Knowledge{Topics: []string{"architecture", "conventions", "operations", "decisions", "preferences"},
		Articles: []readmodel.Article{gone, jwt, local, deploy, style},
		Relevant: []readmodel.Hit{hitOf(jwt), hitOf(deploy)}}
	return in
}

func TestKnowledgeIndexFirst(t *testing.T) {
	doc := build(t, withKnowledge(), Options{Budget: 1 << 20})
	got := sectionsOf(doc)
	want := []string{"Handoff", "Focus", "Plan", "Branch", "Knowledge", "Knowledge: decisions", "Knowledge: operations", "Knowledge: preferences",
		"Knowledge: local-notes", "Preferences", "Relevant articles", "Relevant to your task"}
	if len(got) < len(want) || !slices.Equal(got[:len(want)], want) {
		t.Errorf("sections %q, want the knowledge base's in order %q", got, want)
	}
	if strings.Contains(doc.Text, "knowledge/conventions/sessions.md") {
		t.Errorf("a deprecated article is listed:\n%s", doc.Text)
	}
	for _, line := range []string{
		"- jwt-signing — Sign tokens with RS256 — planq get knowledge/decisions/jwt-signing.md\n",
		"- style (knowledge/preferences/style.md, updated 2026-11-02, medium confidence):\n  We wrap errors with failed to.\n",
		"- deploy (knowledge/operations/deploy.md, updated 2026-11-02, medium confidence):\n  Deploy from main only.",
		"The team's knowledge base: 4 articles on global",
	} {
		if !strings.Contains(doc.Text, line) {
			t.Errorf("no %q in:\n%s", line, doc.Text)
		}
	}
	// The preference is shown once, among the preferences, though the task found it too.
	in := withKnowledge()
	in.Knowledge.Relevant = append(in.Knowledge.Relevant, hitOf(in.Knowledge.Articles[4]))
	doc = build(t, in, Options{Budget: 1 << 20})
	if n := strings.Count(doc.Text, "We wrap errors"); n != 1 {
		t.Errorf("the preference's text is shown %d times", n)
	}
}

// TestKnowledgeBudget: as the budget shrinks, the articles' text goes
// before any line of the index, but for the text of the article best for
// the task, which outlasts the lines of the articles the task did not find
// and goes before those of the articles it found; the preferences' text stays while any of
// the index does, and every article whose text was left out is named with
// its planq get.
func TestKnowledgeBudget(t *testing.T) {
	in := withKnowledge()
	whole := build(t, in, Options{Budget: 1 << 20})
	sawBodiesDropped, sawIndexDropped := false, false
	best := in.Knowledge.Relevant[0].Path
	for budget := len(whole.Text); budget > 600; budget -= 97 {
		doc := build(t, in, Options{Budget: budget})
		if len(doc.Text) > budget {
			t.Fatalf("%d characters, over the budget of %d", len(doc.Text), budget)
		}
		var bodyKept, bestKept, indexDropped, keyDropped, prefDropped, indexKept bool
		for _, it := range doc.Items {
			switch {
			case it.Section == sectionArticles && !it.Dropped && it.Article == best:
				bestKept = true
			case it.Section == sectionArticles && !it.Dropped:
				bodyKept = true
			case strings.HasPrefix(it.Section, knowledgeTopic) && it.Dropped && it.Priority == 1:
				indexDropped, keyDropped = true, true
			case strings.HasPrefix(it.Section, knowledgeTopic) && it.Dropped:
				indexDropped = true
			case strings.HasPrefix(it.Section, knowledgeTopic):
				indexKept = true
			case it.Section == sectionPreferences && it.Dropped:
				prefDropped = true
			}
			if it.Article != "" && it.Dropped {
				sawBodiesDropped = true
				if !strings.Contains(doc.Text, "planq get "+it.Article) {
					t.Errorf("budget %d: left out the text of %s and did not name its planq get:\n%s", budget, it.Article, doc.Text)
				}
			}
		}
		sawIndexDropped = sawIndexDropped || indexDropped
		if indexDropped && bodyKept {
			t.Errorf("budget %d: dropped a line of the index, kept the text of an article other than the best:\n%s", budget, doc.Text)
		}
		if keyDropped && bestKept {
			t.Errorf("budget %d: dropped the index line of an article the task found, kept the best one's text:\n%s", budget, doc.Text)
		}
		if prefDropped && indexKept {
			t.Errorf("budget %d: dropped the preferences, kept the index:\n%s", budget, doc.Text)
		}
		if indexDropped && !strings.Contains(doc.Text, "of the knowledge base are not listed; planq get knowledge/_index.md lists them all.") &&
			!strings.Contains(doc.Text, "of the knowledge base is not listed; planq get knowledge/_index.md lists them all.") {
			t.Errorf("budget %d: lines of the index left out, not said:\n%s", budget, doc.Text)
		}
	}
	if !sawBodiesDropped || !sawIndexDropped {
		t.Errorf("the budgets tried never dropped the articles' text (%v) or the index (%v)", sawBodiesDropped, sawIndexDropped)
	}
}

// TestKnowledgeBestArticleOutlastsIndexLines: when the budget holds the
// index but not every article's text, the article best for the task is
// shown whole and the lines of articles the task did not find go first.
func TestKnowledgeBestArticleOutlastsIndexLines(t *testing.T) {
	in := withKnowledge()
	for i := range 20 {
		in.Knowledge.Articles = append(in.Knowledge.Articles, article("architecture", fmt.Sprintf("other-%02d", i), "An article the task did not find", "Text."))
	}
	whole := build(t, in, Options{Budget: 1 << 20})
	best := in.Knowledge.Relevant[0].Path
	// The largest budget that leaves out a line of the index.
	for budget := len(whole.Text); budget > 1000; budget -= 50 {
		doc := build(t, in, Options{Budget: budget})
		var bestKept, otherLineDropped, keyLineDropped bool
		for _, it := range doc.Items {
			switch {
			case it.Article == best && it.Section == sectionArticles:
				bestKept = !it.Dropped
			case strings.HasPrefix(it.Section, knowledgeTopic) && it.Dropped && it.Priority == 1:
				keyLineDropped = true
			case strings.HasPrefix(it.Section, knowledgeTopic) && it.Dropped:
				otherLineDropped = true
			}
		}
		if !otherLineDropped && !keyLineDropped {
			continue
		}
		if !bestKept || keyLineDropped {
			t.Errorf("budget %d: best article's text kept %v, a line of an article the task found dropped %v; want true, false:\n%s",
				budget, bestKept, keyLineDropped, doc.Text)
		}
		return
	}
	t.Error("no budget left out a line of the index")
}

func TestKnowledgeIndexIsCapped(t *testing.T) {
	in := full()
	var all []readmodel.Article
	for i := range 60 {
		a := article("architecture", fmt.Sprintf("a%02d", i), "about it", "text")
		a.Updated = t0.AddDate(0, 0, i) // a59 is the newest
		all = append(all, a)
	}
	old := all[0] // the oldest: listed because the task found it
	in.Knowledge = Knowledge{Topics: []string{"architecture"}, Articles: all, Relevant: []readmodel.Hit{hitOf(old)}}
	doc := build(t, in, Options{Budget: 1 << 20})
	lines := 0
	for _, it := range doc.Items {
		if strings.HasPrefix(it.Section, knowledgeTopic) {
			lines++
		}
	}
	if lines != MaxIndex || doc.OmittedArticles != 60-MaxIndex {
		t.Errorf("%d lines, %d omitted; want %d and %d", lines, doc.OmittedArticles, MaxIndex, 60-MaxIndex)
	}
	for _, want := range []string{"planq get knowledge/architecture/a00.md", "planq get knowledge/architecture/a59.md",
		fmt.Sprintf("%d more articles of the knowledge base are not listed; planq get knowledge/_index.md lists them all.", 60-MaxIndex)} {
		if !strings.Contains(doc.Text, want) {
			t.Errorf("no %q in:\n%s", want, doc.Text)
		}
	}
	if strings.Contains(doc.Text, "knowledge/architecture/a01.md") {
		t.Errorf("an old article the task did not find is listed over newer ones:\n%s", doc.Text)
	}
}

func TestKnowledgeShowsAMatchingDisputedArticle(t *testing.T) {
	in := full()
	var all []readmodel.Article
	var hits []readmodel.Hit
	for i := range MaxArticleHits {
		a := article("architecture", fmt.Sprintf("a%d", i), "about it", fmt.Sprintf("text of a%d", i))
		if i == MaxArticleHits-1 {
			a.Status = changelog.StatusDisputed
		}
		all, hits = append(all, a), append(hits, hitOf(a))
	}
	in.Knowledge = Knowledge{Articles: all, Relevant: hits}
	doc := build(t, in, Options{Budget: 1 << 20})
	var shown []string
	for _, it := range doc.Items {
		if it.Section == sectionArticles {
			shown = append(shown, it.Article)
		}
	}
	want := []string{"knowledge/architecture/a0.md", "knowledge/architecture/a1.md", "knowledge/architecture/a2.md", fmt.Sprintf("knowledge/architecture/a%d.md", MaxArticleHits-1)}
	if !slices.Equal(shown, want) {
		t.Errorf("articles shown whole %q, want %q", shown, want)
	}
	if !strings.Contains(doc.Text, "disputed: the team's sources disagree") || !strings.Contains(doc.Text, "about it [disputed] — planq get") {
		t.Errorf("the disputed article is not marked:\n%s", doc.Text)
	}
}

func TestKnowledgeCutsALongArticle(t *testing.T) {
	in := full()
	long := article("operations", "runbook", "How to run it", strings.Repeat("step ", 1000))
	in.Knowledge = Knowledge{Articles: []readmodel.Article{long}, Relevant: []readmodel.Hit{hitOf(long)}}
	doc := build(t, in, Options{Budget: 1 << 20})
	if !strings.Contains(doc.Text, "(cut short: planq get knowledge/operations/runbook.md reads it whole)") {
		t.Errorf("a long article is not cut with its planq get:\n%s", doc.Text)
	}
	if n := strings.Count(doc.Text, "step"); n > maxArticleText/5+1 {
		t.Errorf("%d steps of the article shown", n)
	}
}

func TestNoKnowledgeNoSection(t *testing.T) {
	doc := build(t, full(), Options{Budget: 1 << 20})
	if strings.Contains(doc.Text, "Knowledge") {
		t.Errorf("a project with no articles gets a knowledge section:\n%s", doc.Text)
	}
}

// TestKnowledgeIndexLineThatTeachesNothing: an article whose description
// only repeats its name (a mulch pattern's slug) is listed by its title
// alone, and its line yields to every learning as the budget shrinks.
func TestKnowledgeIndexLineThatTeachesNothing(t *testing.T) {
	in := withKnowledge()
	silent := article("patterns", "agents-md-validator-authoring", "Agents MD validator authoring", "- agents-md-validator-authoring (pq-5424b7ed42)")
	in.Knowledge.Articles = append(in.Knowledge.Articles, silent)
	whole := build(t, in, Options{Budget: 1 << 20})
	if want := "- agents-md-validator-authoring — planq get knowledge/patterns/agents-md-validator-authoring.md\n"; !strings.Contains(whole.Text, want) {
		t.Errorf("no %q in:\n%s", want, whole.Text)
	}
	if !strings.Contains(whole.Text, "- jwt-signing — Sign tokens with RS256 — planq get") {
		t.Errorf("an article whose description says more lost it:\n%s", whole.Text)
	}
	sawSilentDropped := false
	for budget := len(whole.Text); budget > 600; budget -= 53 {
		doc := build(t, in, Options{Budget: budget})
		silentKept, learningDropped := false, false
		for _, it := range doc.Items {
			switch {
			case strings.Contains(it.Text, silent.Path):
				silentKept = !it.Dropped
				sawSilentDropped = sawSilentDropped || it.Dropped
			case it.Section == "Learnings" && it.Dropped:
				learningDropped = true
			}
		}
		if silentKept && learningDropped {
			t.Fatalf("budget %d: dropped a learning, kept an index line that says only a name:\n%s", budget, doc.Text)
		}
	}
	if !sawSilentDropped {
		t.Error("no budget tried dropped the silent index line")
	}
}
