package knowledge

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
)

func (f *fixture) open(slug string) Opened {
	f.t.Helper()
	o, err := Open(f.ctx, f.store.Repo, slug)
	if err != nil {
		f.t.Fatal(err)
	}
	return o
}

// TestEditCommitsAPersonsTextAsTheirs: the edit is a commit without planq's
// trailer, so the knowledge base reads it as a person's: listed as
// edited, never rewritten by Update, and guarded from an agent's write.
func TestEditCommitsAPersonsTextAsTheirs(t *testing.T) {
	f := newFixture(t)
	l := f.learn("Migrations run before deploys.", changelog.TypeGuide, "deploy", "")
	f.update()
	o := f.open("deploy")
	p := "knowledge/operations/deploy.md"
	if o.Path != p || !strings.Contains(string(o.Data), "curated_by: auto") {
		t.Fatalf("open: %+v", o)
	}
	tip := f.globalTip()
	if res, err := Edit(f.ctx, f.store, o, o.Data, "deploy.md", Options{}); err != nil || res.Action != "unchanged" || f.globalTip() != tip {
		t.Fatalf("an edit that changes nothing: %+v %v", res, err)
	}
	edited := strings.Replace(string(o.Data), "title: deploy", "title: Deploying", 1) + "\nWe deploy with the runbook.\n"
	res, err := Edit(f.ctx, f.store, o, []byte(edited), "deploy.md", Options{})
	if err != nil || res.Action != "updated" || res.CuratedBy != changelog.CuratedMixed || res.Commit != f.globalTip() {
		t.Fatalf("edit: %+v %v", res, err)
	}
	if msg := testgit.Run(t, f.store.Repo.Path, "log", "-1", "--format=%B", project.GlobalBranch); strings.Contains(msg, TrailerKey) {
		t.Errorf("a person's edit carries planq's trailer: %s", msg)
	}
	a, err := changelog.ParseArticle(p, []byte(f.file(p)))
	if err != nil {
		t.Fatal(err)
	}
	if a.Title != "Deploying" || !strings.HasSuffix(a.Body, "We deploy with the runbook.") || a.CuratedBy != changelog.CuratedMixed || !a.Timestamp.Equal(a.Updated) {
		t.Errorf("stored: %+v", a)
	}
	if !strings.Contains(f.file(IndexPath), "[Deploying](operations/deploy.md)") {
		t.Errorf("index:\n%s", f.file(IndexPath))
	}
	entries, _, err := List(f.ctx, f.store.Handle, Options{})
	if err != nil || len(entries) != 1 || !entries[0].EditedByPerson {
		t.Fatalf("the knowledge base does not see a person's edit: %+v %v", entries, err)
	}
	l2 := f.learn("Deploys need a green main.", changelog.TypeGuide, "deploy", "")
	if res := f.update(); len(res.Appended) != 1 || len(res.Updated) != 0 {
		t.Errorf("update after the edit: %+v", res)
	}
	if got := f.file(p); !strings.Contains(got, "We deploy with the runbook.\n\n# New since your edit\n\n- Deploys need a green main. ("+l2+")") {
		t.Errorf("after the edit and a new source:\n%s", got)
	}
	// An agent's version that drops the person's line is refused.
	agentText := strings.Replace(f.file(p), "We deploy with the runbook.", "", 1)
	agentText = strings.Replace(agentText, "sources:\n  - "+l, "sources:\n  - "+l+"\n  - "+l2, 1)
	if _, err := f.writeArticle("deploy", agentText, false); planqerr.KindOf(err) != planqerr.Refused || !strings.Contains(err.Error(), "drops their line") {
		t.Errorf("an agent over a person's edit: %v", err)
	}
}

// TestEditRefusesWhatDoesNotParseAndWhatChangedMeanwhile.
func TestEditRefusesWhatDoesNotParseAndWhatChangedMeanwhile(t *testing.T) {
	f := newFixture(t)
	f.learn("Logs are JSON lines.", changelog.TypeConvention, "logging", "")
	f.update()
	o := f.open("logging")
	tip := f.globalTip()
	for _, c := range []struct {
		name, text, want string
	}{
		{"broken YAML", strings.Replace(string(o.Data), "title: logging", "title: [", 1), "logging.md:"},
		{"an unknown topic", strings.Replace(string(o.Data), "topic: conventions", "topic: misc", 1), `topic "misc" is not one of`},
		{"a source that does not exist", strings.Replace(string(o.Data), "sources:\n", "sources:\n  - pq-00000000\n", 1), "pq-00000000 is no learning or decision"},
		{"a credential", string(o.Data) + "\nkey AKIA2E0A8F3B244C9986\n", "credential"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Edit(f.ctx, f.store, o, []byte(c.text), "logging.md", Options{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
			if f.globalTip() != tip {
				t.Error("a refused edit moved global")
			}
		})
	}
	// Someone else changes the article after it was opened.
	f.asPerson("meanwhile", func(dir string) {
		file := filepath.Join(dir, "knowledge", "conventions", "logging.md")
		if err := os.WriteFile(file, append(append([]byte{}, o.Data...), "\nOurs.\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	tip = f.globalTip()
	if _, err := Edit(f.ctx, f.store, o, append(append([]byte{}, o.Data...), "\nMine.\n"...), "logging.md", Options{}); planqerr.KindOf(err) != planqerr.Busy || f.globalTip() != tip {
		t.Errorf("an edit over a change it did not see: %v", err)
	}
	// A file planq cannot read opens as it is, and an edit that parses fixes it.
	f.asPerson("broken", func(dir string) {
		file := filepath.Join(dir, "knowledge", "conventions", "logging.md")
		if err := os.WriteFile(file, []byte("no frontmatter\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	broken := f.open("logging")
	if broken.Problem == "" || string(broken.Data) != "no frontmatter\n" {
		t.Fatalf("open a broken article: %+v", broken)
	}
	if res, err := Edit(f.ctx, f.store, broken, o.Data, "logging.md", Options{}); err != nil || res.Action != "updated" {
		t.Fatalf("fixing it: %+v %v", res, err)
	}
	if _, err := changelog.ParseArticle("knowledge/conventions/logging.md", []byte(f.file("knowledge/conventions/logging.md"))); err != nil {
		t.Error(err)
	}
	for _, slug := range []string{"nothing", "../x"} {
		if _, err := Open(f.ctx, f.store.Repo, slug); err == nil {
			t.Errorf("open %q: no error", slug)
		}
	}
}
