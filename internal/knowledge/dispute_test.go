package knowledge

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/planq-dev/planq/changelog"
)

func (f *fixture) article(p string) *changelog.Article {
	f.t.Helper()
	a, err := changelog.ParseArticle(p, []byte(f.file(p)))
	if err != nil {
		f.t.Fatal(err)
	}
	return a
}

// TestANewContradictionMarksTheArticleDisputed: a learning on an article's
// subject that says something else marks it disputed, with a Conflict
// section that cites both sides in their words; both stay among its key
// facts; the index shows it; a second update changes nothing.
func TestANewContradictionMarksTheArticleDisputed(t *testing.T) {
	f := newFixture(t)
	l1 := f.learn("Sessions live in Redis. They expire after a day.", changelog.TypeConvention, "sessions", "session storage")
	l2 := f.learn("Session cookies are HttpOnly.", changelog.TypeConvention, "sessions", "session cookies") // another subject
	f.update()
	p := "knowledge/conventions/session-storage.md"
	if a := f.article(p); a.Status != changelog.StatusCurrent {
		t.Fatalf("before the contradiction: %+v", a)
	}
	l3 := f.learn("Sessions live in PostgreSQL.", changelog.TypeConvention, "sessions", "Session  storage")
	res := f.update()
	if !slices.Equal(res.Disputed, []string{p}) || len(res.Updated) != 0 {
		t.Fatalf("update after the contradiction: %+v", res)
	}
	a := f.article(p)
	if a.Status != changelog.StatusDisputed || !slices.Equal(a.Sources, []string{l1, l3}) {
		t.Errorf("the disputed article: %+v", a)
	}
	for _, want := range []string{
		conflictHeading + "\n\nThese sources say different things on one subject; planq keeps every side until `planq kb resolve session-storage --keep SOURCE` settles it.\n\n" +
			"- Sessions live in Redis. (" + l1 + "; contradicts " + l3 + ")\n" +
			"- Sessions live in PostgreSQL. (" + l3 + "; contradicts " + l1 + ")\n",
	} {
		if !strings.Contains(a.Body, want) {
			t.Errorf("the article lacks %q:\n%s", want, a.Body)
		}
	}
	// Each side is stated once, in the Conflict section: not again as a
	// summary or a key fact.
	for _, side := range []string{"Sessions live in Redis.", "Sessions live in PostgreSQL."} {
		if n := strings.Count(a.Body, side); n != 1 {
			t.Errorf("%q is stated %d times:\n%s", side, n, a.Body)
		}
	}
	if strings.Contains(f.file("knowledge/conventions/session-cookies.md"), "disputed") || strings.Contains(a.Body, l2) {
		t.Error("another subject took part in the dispute")
	}
	if !strings.Contains(f.file(IndexPath), "(disputed, medium confidence)") {
		t.Errorf("the index does not show the dispute:\n%s", f.file(IndexPath))
	}
	if again := f.update(); again.Changed() {
		t.Errorf("a second update changed something: %+v", again)
	}
}

// TestWhatIsNoContradiction: the same words again, new facts on other
// subjects of one domain, and two reports of one program are no dispute.
func TestWhatIsNoContradiction(t *testing.T) {
	f := newFixture(t)
	f.learn("Builds run in Docker.", changelog.TypeGuide, "ci", "build runner")
	f.learn("builds run in  docker", changelog.TypeGuide, "ci", "build runner") // the same, told otherwise
	f.learn("The cache key is the lockfile's hash.", changelog.TypeGuide, "ci", "")
	f.learn("Agent: coordinator\nFailure reason: Process terminated", changelog.TypeFailure, "crashes", "")
	f.learn("Agent: coordinator\nFailure reason: Out of memory", changelog.TypeFailure, "crashes", "")
	res := f.update()
	if len(res.Disputed) != 0 || len(res.Created) == 0 {
		t.Fatalf("update: %+v", res)
	}
	entries, _, err := List(f.ctx, f.store.Handle, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Status != changelog.StatusCurrent {
			t.Errorf("%s is %s", e.Path, e.Status)
		}
	}
}

// TestADecisionThatChoosesOtherwiseDisputesTheArticlesDecision: a later
// decision in an article that chooses differently from its decision is a
// side, even under another wording of the subject; a source promote marked
// disputed is a side with the record it was promoted against, in the
// article or not.
func TestADecisionThatChoosesOtherwiseDisputesTheArticlesDecision(t *testing.T) {
	at := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	rec := func(id string, kind changelog.Kind, subject, text string, minutes int) *changelog.Record {
		r := &changelog.Record{ID: id, Kind: kind, Subject: subject, Timestamp: at.Add(time.Duration(minutes) * time.Minute), Domain: "db", Type: changelog.TypeConvention}
		if kind == changelog.KindDecision {
			r.Type, r.Decision = changelog.TypeDecision, text
		} else {
			r.Body = text
		}
		return r
	}
	d1 := rec("pq-d1d1", changelog.KindDecision, "Database", "Use PostgreSQL.", 0)
	d2 := rec("pq-d2d2", changelog.KindDecision, "database engine", "Use SQLite.", 1)
	d3 := rec("pq-d3d3", changelog.KindDecision, "Database", "Use PostgreSQL.", 2) // chooses the same
	l1 := rec("pq-1111", changelog.KindLearning, "database", "Migrations run with make migrate.", 3)
	got := contradictions("database", []*changelog.Record{d1, d2, d3, l1}, nil)
	if !slices.Equal(got[d1.ID], []string{d2.ID}) || !slices.Equal(got[d2.ID], []string{d1.ID}) || len(got[d3.ID]) != 0 || len(got[l1.ID]) != 0 {
		t.Errorf("contradictions of the decisions: %v", got)
	}

	outside := rec("pq-0a0a", changelog.KindLearning, "pool size", "The pool holds 10 connections.", 0)
	marked := rec("pq-0b0b", changelog.KindLearning, "pool size", "The pool holds 50 connections.", 5)
	marked.Status = changelog.StatusDisputed
	byKey := func(key string) []*changelog.Record {
		if key == changelog.SubjectKey(outside) {
			return []*changelog.Record{outside, marked}
		}
		return nil
	}
	got = contradictions("database", []*changelog.Record{marked}, byKey)
	if !slices.Equal(got[marked.ID], []string{outside.ID}) {
		t.Errorf("a source marked disputed: %v", got)
	}
	if got := contradictions("database", []*changelog.Record{marked}, nil); len(got) != 0 {
		t.Errorf("without global's records: %v", got)
	}
}

// TestAContradictionOfAPersonsArticleIsOnlyListed: an article a person
// edited keeps every byte and its status; the contradicting source is
// listed under "New since your edit" with the source it contradicts, in
// that source's words.
func TestAContradictionOfAPersonsArticleIsOnlyListed(t *testing.T) {
	f := newFixture(t)
	l1 := f.learn("Tokens expire after an hour.", changelog.TypeConvention, "auth", "token lifetime")
	f.update()
	p := "knowledge/conventions/token-lifetime.md"
	var edited string
	f.asPerson("a person's words", func(dir string) {
		file := filepath.Join(dir, filepath.FromSlash(p))
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		edited = string(data) + "\nAsk the security team before changing it.\n"
		if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	l2 := f.learn("Tokens expire after a day.", changelog.TypeConvention, "auth", "token lifetime")
	res := f.update()
	if !slices.Equal(res.Appended, []string{p}) || len(res.Disputed) != 0 {
		t.Fatalf("update: %+v", res)
	}
	want := edited + "\n" + newSinceHeading + "\n\n- Tokens expire after a day. (" + l2 + "; contradicts " + l1 + ", which says: Tokens expire after an hour.)\n"
	if got := f.file(p); got != want {
		t.Errorf("the person's article:\n%s\nwant:\n%s", got, want)
	}
	if a := f.article(p); a.Status != changelog.StatusCurrent {
		t.Errorf("a person's article was marked %s", a.Status)
	}
}

// Two learnings of one subject dispute only when they give different
// values for one thing; two facts, one that says more, and one fact in
// other words do not (the shapes read on real projects' instruction files
// and mulch records).
func TestDifferentValues(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"Tests: npm test", "Tests: bun test", true},
		{"Indent with two spaces.", "Indent with tabs.", true},
		{"Tokens expire after 15 minutes.", "Tokens expire after 60 minutes.", true},
		{"Never log sensitive data.", "Fail closed on authorization errors.", false},
		{"Use bun.", "Use bun, and npx for CDK.", false},
		{"Always re-snapshot after navigation or DOM changes — refs are invalidated by page updates.",
			"Always re-snapshot after page navigation or DOM changes to get fresh refs.", false},
		{"Config: YAML at `.mulch/mulch.config.yaml`", "Upsert semantics: `ml record` upserts by name.", false},
		{"Keys rotate every 90 days.", "Keys rotate every 90 days.", false},
	} {
		a := &changelog.Record{Kind: changelog.KindLearning, Body: tc.a}
		b := &changelog.Record{Kind: changelog.KindLearning, Body: tc.b}
		if got := differentValues(a, b); got != tc.want {
			t.Errorf("differentValues(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
		if got := differentValues(b, a); got != tc.want {
			t.Errorf("differentValues(%q, %q) = %v, want %v (the other way)", tc.b, tc.a, got, tc.want)
		}
	}
}

// Two decisions of one article choose otherwise when one takes what the
// other set aside, or they read alike but for the choice; a decision on
// another matter, or the same one in other words, does not.
func TestChoosesOtherwise(t *testing.T) {
	dec := func(text string, alternatives ...string) *changelog.Record {
		return &changelog.Record{Kind: changelog.KindDecision, Decision: text, Alternatives: alternatives}
	}
	for _, tc := range []struct {
		a, b *changelog.Record
		want bool
	}{
		{dec("Use RS256 for JWT signing", "HS256"), dec("Sign tokens with HS256 again"), true},
		{dec("Use RS256 for JWT signing."), dec("Use HS256 for JWT signing."), true},
		{dec("Use RS256 for JWT signing", "HS256"), dec("Rotate the signing key every 90 days"), false},
		{dec("Define two complementary enforcement patterns for agent egress."), dec("Adopt a **dual-pattern enforcement model** for agent egress."), false},
	} {
		if got := choosesOtherwise(tc.a, tc.b); got != tc.want {
			t.Errorf("choosesOtherwise(%q, %q) = %v, want %v", tc.a.Decision, tc.b.Decision, got, tc.want)
		}
	}
}
