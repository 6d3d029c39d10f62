package knowledge

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
)

// TestEveryCurrentDecisionIsInExactlyOneArticle: over random histories
// (decisions with a subject or none, some superseding
// others, written in batches with an update after each), every current
// decision on global is cited by exactly one current article, and no
// superseded one stays in a current article's key facts unmarked.
func TestEveryCurrentDecisionIsInExactlyOneArticle(t *testing.T) {
	words := strings.Fields("use keep store sign rotate cache queue split merge pin drop add tokens keys sessions logs builds " +
		"releases redis postgres kafka jwt rs256 weekly daily json yaml grpc rest docker nix")
	subjects := []string{"", "", "", "auth tokens", "storage"}
	for seed := range uint64(3) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			f := newFixture(t)
			rng := rand.New(rand.NewPCG(seed, 7))
			var written []*changelog.Record
			for batch := range 3 {
				var recs []*changelog.Record
				for range 15 + rng.IntN(30) {
					n := 3 + rng.IntN(5)
					text := make([]string, n)
					for i := range text {
						text[i] = words[rng.IntN(len(words))]
					}
					in := changelog.DecisionInput{Decision: strings.Join(text, " "), Rationale: "it was agreed", Subject: subjects[rng.IntN(len(subjects))]}
					if len(written) > 0 && rng.IntN(5) == 0 {
						old := written[rng.IntN(len(written))]
						in.Supersedes, in.Subject = old.ID, old.Subject
					}
					r, err := changelog.NewDecision(in)
					if err != nil {
						t.Fatal(err)
					}
					recs = append(recs, r)
				}
				if _, err := f.store.CommitGlobal(f.ctx, agent.GlobalChange{Writer: "auth", Records: recs, Message: fmt.Sprintf("batch %d\n", batch)}); err != nil {
					t.Fatal(err)
				}
				written = append(written, recs...)
				f.update()
				checkDecisionsCitedOnce(t, f)
			}
		})
	}
}

// checkDecisionsCitedOnce fails t unless every current decision on global
// is a source of exactly one current article.
func checkDecisionsCitedOnce(t *testing.T, f *fixture) {
	t.Helper()
	set, err := f.store.Records.Branch(project.GlobalBranch, changelog.KindDecision)
	if err != nil {
		t.Fatal(err)
	}
	entries, _, err := List(f.ctx, f.store.Handle, Options{})
	if err != nil {
		t.Fatal(err)
	}
	citedBy := map[string][]string{}
	for _, e := range entries {
		a := f.article(e.Path)
		if a.Status == changelog.StatusDeprecated {
			continue
		}
		for _, s := range a.Sources {
			citedBy[s] = append(citedBy[s], e.Path)
		}
	}
	for _, r := range set.Current() {
		if got := citedBy[r.ID]; len(got) != 1 {
			t.Errorf("current decision %s (%q, subject %q) is cited by %d current articles: %q", r.ID, r.Decision, r.Subject, len(got), got)
		}
	}
}

// TestALooseDecisionGetsAnArticleOfItsOwn: "Use RS256 for JWT signing",
// decided with no subject, had no article: kb search found nothing and
// the index did not list it. It gets one under decisions, listed by the
// index with its decision.
func TestALooseDecisionGetsAnArticleOfItsOwn(t *testing.T) {
	f := newFixture(t)
	id := f.decide("Use RS256 for JWT signing", "services verify with the public key", "")
	res := f.update()
	p := "knowledge/decisions/use-rs256-for-jwt-signing.md"
	if !slices.Equal(res.Created, []string{p}) {
		t.Fatalf("created %q, want %s", res.Created, p)
	}
	if body := f.file(p); !strings.Contains(body, "# Decision\n\nUse RS256 for JWT signing ("+id+")") {
		t.Errorf("the article:\n%s", body)
	}
	if index := f.file(IndexPath); !strings.Contains(index, "use-rs256-for-jwt-signing.md") {
		t.Errorf("the index does not list it:\n%s", index)
	}
}

// TestASupersededDecisionIsShownWithWhatReplacedIt: HS256 replaced by
// RS256 (and RS256's rationale refined again) leaves one article, whose
// # Superseded section names each earlier version with what replaced it;
// the index and the decisions view count them, and the index line says why
// the decision was taken rather than its title twice.
func TestASupersededDecisionIsShownWithWhatReplacedIt(t *testing.T) {
	f := newFixture(t)
	first := f.decide("Use HS256 for JWT signing", "one shared secret is simplest", "")
	second := f.write(changelog.NewDecision(changelog.DecisionInput{Decision: "Use RS256 for JWT signing",
		Rationale: "services verify with the public key", Supersedes: first}))
	third := f.write(changelog.NewDecision(changelog.DecisionInput{Decision: "Use RS256 for JWT signing",
		Rationale: "services verify with the public key; the private key stays in the issuer", Supersedes: second}))
	f.update()
	p := "knowledge/decisions/use-rs256-for-jwt-signing.md"
	body := f.file(p)
	a := f.article(p)
	if !slices.Equal(a.Sources, []string{third}) || a.Status != changelog.StatusCurrent {
		t.Fatalf("sources %q status %s, want [%s] current:\n%s", a.Sources, a.Status, third, body)
	}
	_, section, _, ok := cutSection(body, supersededHeading)
	want := []string{
		"- Use RS256 for JWT signing (" + second + "; superseded by " + third + " on ",
		"- Use HS256 for JWT signing (" + first + "; superseded by " + second + " on ",
	}
	lines := strings.Split(strings.TrimSpace(section), "\n")
	if !ok || len(lines) != len(want) {
		t.Fatalf("no # Superseded section naming both earlier versions:\n%s", body)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("superseded line %d = %q, want it to start %q", i, lines[i], w)
		}
	}
	if a.Description != "services verify with the public key; the private key stays in the issuer" {
		t.Errorf("description %q, want the rationale", a.Description)
	}
	if index := f.file(IndexPath); !strings.Contains(index, "supersedes 2 earlier") || !strings.Contains(index, "- services verify with the public key") {
		t.Errorf("the index does not say what the decision replaced or why:\n%s", index)
	}
	entries, _, err := List(f.ctx, f.store.Handle, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Supersedes != 2 || entries[0].Decided == nil {
		t.Errorf("the decisions view: %+v", entries)
	}
}

// TestLooseDecisionsShareArticlesAtScale: the first MaxOwnDecisions loose
// decisions get articles of their own; the rest
// share articles of MaxGroupedDecisions each, so that every one is in an
// article and the article count stays small.
func TestLooseDecisionsShareArticlesAtScale(t *testing.T) {
	f := newFixture(t)
	n := MaxOwnDecisions + MaxGroupedDecisions + 5
	var recs []*changelog.Record
	for i := range n {
		r, err := changelog.NewDecision(changelog.DecisionInput{Decision: fmt.Sprintf("Pin tool number %d to its tested version", i), Rationale: "builds repeat"})
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	if _, err := f.store.CommitGlobal(f.ctx, agent.GlobalChange{Writer: "auth", Records: recs, Message: "many decisions\n"}); err != nil {
		t.Fatal(err)
	}
	res := f.update()
	if got, want := len(res.Created), MaxOwnDecisions+2; got != want {
		t.Errorf("%d articles for %d loose decisions, want %d (%d of their own, then 2 shared)", got, n, want, MaxOwnDecisions)
	}
	for _, p := range []string{"knowledge/decisions/decisions.md", "knowledge/decisions/decisions-2.md"} {
		if !slices.Contains(res.Created, p) {
			t.Errorf("no shared article %s among %q", p, res.Created)
		}
	}
	checkDecisionsCitedOnce(t, f)
}

// TestSupersededIsBounded: three decisions revised 24 times each keep an
// article a reader reads: its Superseded section follows each back 20
// versions, names the first 50 of those 60 and counts the other 10, and
// the decisions view counts all 60.
func TestSupersededIsBounded(t *testing.T) {
	f := newFixture(t)
	for i := range 3 {
		// Each decision revised 24 times: 3 x 20 versions followed back,
		// 50 named and 10 counted.
		prev := ""
		for v := range 25 {
			prev = f.write(changelog.NewDecision(changelog.DecisionInput{Decision: fmt.Sprintf("Keep store %d at version %d", i, v), Rationale: "measured",
				Subject: "storage", Supersedes: prev}))
		}
	}
	f.update()
	body := f.file(f.articleAt("storage"))
	_, section, _, ok := cutSection(body, supersededHeading)
	lines := strings.Split(strings.TrimSpace(section), "\n")
	if !ok || len(lines) != maxSupersededLines+1 || lines[len(lines)-1] != fmt.Sprintf(supersededMore, 10) {
		t.Fatalf("%d lines, the last %q:\n%s", len(lines), lines[len(lines)-1], body)
	}
	if n := supersededCount(body); n != 60 {
		t.Errorf("supersededCount = %d, want 60", n)
	}
}
