package knowledge

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/planq-dev/planq/changelog"
)

// A mulch outcome becomes a tag longer than an article holds: the article
// leaves it out, says so in Skipped, and the update goes on.
func TestATagAnArticleCannotHoldIsLeftOutWithANote(t *testing.T) {
	f := newFixture(t)
	rec, err := changelog.NewLearning(changelog.LearningInput{Text: "Builds run in Docker.", Type: changelog.TypeGuide, Domain: "ci", Subject: "CI builds"})
	if err != nil {
		t.Fatal(err)
	}
	long := "mulch:outcome=" + strings.Repeat("x", 136)
	rec.Tags = []string{long, "docker"}
	id := f.write(rec, nil)
	res := f.update()
	p := f.articleAt("ci-builds")
	a := f.article(p)
	if strings.Join(a.Tags, ",") != "ci,docker" || !strings.Contains(a.Body, "Builds run in Docker. ("+id+")") {
		t.Errorf("article: tags %q, body:\n%s", a.Tags, a.Body)
	}
	if len(res.Skipped) != 1 || res.Skipped[0].Path != p || !strings.Contains(res.Skipped[0].Problem, long) {
		t.Errorf("skipped %+v, want a note of the tag left out", res.Skipped)
	}
}

// A mulch pattern's body is its name, then its description; a mulch
// decision's its title, then its rationale: the article says what each
// teaches, never the name alone.
func TestAnArticleSaysWhatItsRecordsTeach(t *testing.T) {
	f := newFixture(t)
	slug := "pi-extension-state-persistence"
	p := f.learn(slug+"\n\nExtensions keep their state in the session file, e.g. a counter. Nothing else survives a restart.", changelog.TypePattern, "pi", slug)
	d := f.learn("Store records as JSONL files\n\nAppends from two branches merge without conflict. A database would not.", changelog.TypeDecision, "storage", "Store records as JSONL files")
	f.update()
	pattern := f.article(f.articleAt(slug))
	if want := slug + ": Extensions keep their state in the session file, e.g. a counter."; pattern.Description != want ||
		!strings.Contains(pattern.Body, "# Summary\n\n"+want+" ("+p+")") || strings.Count(pattern.Body, want) != 1 {
		t.Errorf("pattern article, want %q:\n%+v", want, pattern)
	}
	// A name of more words is still only a name when it is the subject.
	named := "bd CLI JSON normalization"
	n := f.learn(named+"\n\nbd show --json returns an array, not one object. Unwrap it.", changelog.TypePattern, "typescript", named)
	f.update()
	if want := named + ": bd show --json returns an array, not one object."; !strings.Contains(f.file(f.articleAt("bd-cli-json-normalization")), want+" ("+n+")") {
		t.Errorf("long-named pattern's article lacks %q:\n%s", want, f.file(f.articleAt("bd-cli-json-normalization")))
	}
	decision := f.file(f.articleAt("store-records-as-jsonl-files"))
	for _, line := range []string{"# Summary\n\nStore records as JSONL files (" + d + ")", "# Rationale\n\n- Appends from two branches merge without conflict. (" + d + ")"} {
		if !strings.Contains(decision, line) {
			t.Errorf("decision article lacks %q:\n%s", line, decision)
		}
	}
}

// An article quotes a sentence whole: an abbreviation or a period in
// parentheses does not end it, and a leading bold or italic span loses
// both its markers or neither.
func TestFirstSentence(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"Packagers (e.g. Homebrew) ship it. Then more.", "Packagers (e.g. Homebrew) ship it."},
		{"Locks expire (see lock.go. It sets a TTL) quickly. Then retry.", "Locks expire (see lock.go. It sets a TTL) quickly."},
		{"First paragraph\nwrapped.\n\nSecond.", "First paragraph wrapped."},
		{"**Always** run tests. Then lint.", "Always run tests."},
		{"*Never* push to main.", "Never push to main."},
		{"__Note__ the order.", "Note the order."},
		{"- **Bold** item.", "Bold item."},
		{"* A bullet item.", "A bullet item."},
		{"## A heading", "A heading"},
		{"**Unclosed bold stays whole.", "**Unclosed bold stays whole."},
	} {
		if got := firstSentence(tc.text); got != tc.want {
			t.Errorf("firstSentence(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

// FuzzFirstSentence: an article's line is one line, never longer than 300
// characters, made of the text's own words.
func FuzzFirstSentence(f *testing.F) {
	f.Add("**Always** run tests (e.g. unit). Then lint.")
	f.Add("- *x")
	f.Add("(a. b) c. d")
	f.Fuzz(func(t *testing.T, text string) {
		if !utf8.ValidString(text) {
			t.Skip()
		}
		s := firstSentence(text)
		if strings.ContainsAny(s, "\r\n") || utf8.RuneCountInString(s) > 300 {
			t.Fatalf("firstSentence(%q) = %q", text, s)
		}
		plain := strings.NewReplacer("*", "", "_", "").Replace(text)
		for _, w := range strings.Fields(strings.NewReplacer("*", "", "_", "", "…", " ").Replace(s)) {
			if !strings.Contains(plain, w) {
				t.Fatalf("firstSentence(%q) = %q says %q", text, s, w)
			}
		}
	})
}

// A bootstrap lists each record it created by its subject and what it
// teaches, the subject once.
func TestBootstrapTitleOf(t *testing.T) {
	for _, tc := range []struct{ subject, body, want string }{
		{"Commands", "Tests: npm test", "Commands: Tests: npm test"},
		{"bd CLI JSON normalization", "bd CLI JSON normalization\n\nbd show returns an array. Unwrap it.", "bd CLI JSON normalization: bd show returns an array."},
		{"", "Deploys need a green main. Always.", "Deploys need a green main."},
	} {
		r := &changelog.Record{Kind: changelog.KindLearning, Type: changelog.TypeConvention, Subject: tc.subject, Body: tc.body}
		if got := titleOf(r); got != tc.want {
			t.Errorf("titleOf(%q, %q) = %q, want %q", tc.subject, tc.body, got, tc.want)
		}
	}
}
