package session_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testproject"
	"github.com/planq-dev/planq/internal/userlayer"
	"github.com/planq-dev/planq/prime"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/session"
)

// The user layer's records of these tests: a preference, a Go learning, a
// Python one, a decision on Docker and one on release notes.
var userRecords = []changelog.LearningInput{
	{Text: "Answer in British English, and keep commit subjects under 60 characters", Type: changelog.TypeConvention, Domain: prime.PreferencesDomain},
	{Text: "In Go, wrap errors with %w and name what failed", Type: changelog.TypeConvention, Domain: "golang"},
	{Text: "Pytest fixtures beat setUp methods in Python test suites", Type: changelog.TypePattern, Domain: "python"},
	{Text: "Release notes are written in the imperative, one line per change", Type: changelog.TypeConvention, Domain: "docs"},
}

// makeUserLayer makes the user layer under home and commits records to it.
func makeUserLayer(t *testing.T, home string, inputs ...changelog.LearningInput) map[string]string {
	t.Helper()
	ctx := context.Background()
	l, err := userlayer.Open(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ids := map[string]string{}
	var recs []*changelog.Record
	for _, in := range inputs {
		r, err := changelog.NewLearning(in)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	dec, err := changelog.NewDecision(changelog.DecisionInput{Decision: "Ship every service as a Docker image", Rationale: "one way to run it everywhere"})
	if err != nil {
		t.Fatal(err)
	}
	recs = append(recs, dec)
	if _, err := l.CommitGlobal(ctx, agent.GlobalChange{Writer: "user", Records: recs, Message: "seed the user layer"}); err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		ids[r.Title()] = r.ID
	}
	return ids
}

// userItems are the texts of the document's items from the user layer, by
// section; it fails the test if an item of the user layer's sections is
// not marked as the user layer's, or one marked so is elsewhere.
func userItems(t *testing.T, doc *prime.Document) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, it := range doc.Items {
		labelled := strings.Contains(it.Section, "user layer")
		if labelled != (it.Layer == prime.LayerUser) {
			t.Errorf("item %q of section %q has layer %q", it.Text, it.Section, it.Layer)
		}
		if labelled {
			out[it.Section] = append(out[it.Section], it.Text)
		}
	}
	return out
}

func anyContains(texts []string, sub string) bool {
	for _, s := range texts {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// TestPrimeShowsTheUserLayer: the user layer's preference is shown in
// every project; its Go learning in a project with a go.mod and not in a
// Python-only one, whose Python learning it shows instead; what the focus
// names is found without the stack; each in a section that names the user
// layer. A private project gets the user layer too.
func TestPrimeShowsTheUserLayer(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		files   map[string]string
		focus   string
		private bool
		want    []string
		notWant []string
	}{
		{name: "go", files: map[string]string{"go.mod": "module example.com/x\n\ngo 1.22\n", "Dockerfile": "FROM scratch\n"},
			want: []string{"Answer in British English", "wrap errors with %w", "Docker image"}, notWant: []string{"Pytest", "Release notes"}},
		{name: "python", files: map[string]string{"pyproject.toml": "[project]\nname = \"x\"\ndependencies = [\"pytest\"]\n"},
			want: []string{"Answer in British English", "Pytest fixtures"}, notWant: []string{"wrap errors", "Docker", "Release notes"}},
		{name: "focus", files: map[string]string{"README.md": "x\n"}, focus: "Write the release notes for 2.0",
			want: []string{"Answer in British English", "Release notes are written"}, notWant: []string{"wrap errors", "Pytest", "Docker"}},
		{name: "private", files: map[string]string{"go.mod": "module example.com/x\n"}, private: true,
			want: []string{"Answer in British English", "wrap errors with %w"}, notWant: []string{"Pytest"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := testproject.New(t, tc.files)
			if tc.private {
				optOut(t, p.Code)
			}
			ids := makeUserLayer(t, p.Store.Project.Home, userRecords...)
			if tc.focus != "" {
				if _, err := p.Agent.SetFocus(ctx, tc.focus, agent.WriteOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			var warned []error
			text, doc, err := serviceAt(t, p.Code).Prime(ctx, session.PrimeOptions{Warn: func(err error) { warned = append(warned, err) }})
			if err != nil {
				t.Fatal(err)
			}
			if len(warned) > 0 {
				t.Errorf("warnings: %v", warned)
			}
			items := userItems(t, doc)
			prefs := items["Your preferences (from your user layer)"]
			if len(prefs) != 1 || !strings.Contains(prefs[0], "Answer in British English") || !strings.HasSuffix(prefs[0], ids[userRecords[0].Text]) {
				t.Errorf("preferences shown: %q", prefs)
			}
			all := append(prefs, items["From your user layer"]...)
			for _, w := range tc.want {
				if !anyContains(all, w) {
					t.Errorf("%q not shown from the user layer: %q", w, all)
				}
			}
			for _, w := range tc.notWant {
				if anyContains(all, w) || strings.Contains(text, w) {
					t.Errorf("%q shown, though nothing of this project calls for it:\n%s", w, text)
				}
			}
			if anyContains(items["From your user layer"], "Answer in British English") {
				t.Error("a preference is shown twice")
			}
			if !strings.Contains(text, "\n## From your user layer\n") && len(items["From your user layer"]) > 0 {
				t.Errorf("the document has no section that names the user layer:\n%s", text)
			}
		})
	}
}

// optOut makes the project at code private (private: true).
func optOut(t *testing.T, code string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(code, ".planq", "config"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString("private: true\n"); err != nil {
		t.Fatal(err)
	}
}

// TestPrimeWithoutAUserLayerNeverMakesOne: a project's prime on a machine
// whose user layer was never made shows none and makes none.
func TestPrimeWithoutAUserLayerNeverMakesOne(t *testing.T) {
	p := testproject.New(t, map[string]string{"go.mod": "module example.com/x\n"})
	_, doc, err := serviceAt(t, p.Code).Prime(context.Background(), session.PrimeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if items := userItems(t, doc); len(items) > 0 {
		t.Errorf("items from a user layer that does not exist: %q", items)
	}
	if userlayer.Exists(p.Store.Project.Home) {
		t.Error("prime made the user layer")
	}
}

// TestPrimeSurvivesABrokenUserLayer: a user layer that cannot be read is
// left out with a warning naming it; the session still gets the project's
// document.
func TestPrimeSurvivesABrokenUserLayer(t *testing.T) {
	p := testproject.New(t, nil)
	pr := p.Store.Project
	makeUserLayer(t, pr.Home, userRecords[0])
	dir := project.StateRepoPath(pr.Home, project.UserLayerName)
	if err := os.RemoveAll(filepath.Join(dir, "objects")); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(pr.Home, "cache", project.UserLayerName)); err != nil {
		t.Fatal(err)
	}
	var warned []error
	text, doc, err := serviceAt(t, p.Code).Prime(context.Background(), session.PrimeOptions{Warn: func(err error) { warned = append(warned, err) }})
	if err != nil {
		t.Fatalf("a broken user layer failed the session start: %v", err)
	}
	if len(warned) != 1 || !strings.Contains(warned[0].Error(), "user layer") {
		t.Errorf("warnings %v, want one naming the user layer", warned)
	}
	if items := userItems(t, doc); len(items) > 0 || !strings.Contains(text, "## Recording") {
		t.Errorf("document with a broken user layer: items %q\n%s", items, text)
	}
}
