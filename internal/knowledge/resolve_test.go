package knowledge

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/project"
)

// TestResolveKeepsOneSideForGood: kb resolve keeps the chosen source, sets
// the other aside (out of the sources, named in a Resolved note with the
// date), makes the article current in one commit of planq's, and the side
// set aside never joins again; refusals name what to do.
func TestResolveKeepsOneSideForGood(t *testing.T) {
	f := newFixture(t)
	l1 := f.learn("Sessions live in Redis.", changelog.TypeConvention, "sessions", "session storage")
	l2 := f.learn("Sessions live in PostgreSQL.", changelog.TypeConvention, "sessions", "session storage")
	f.update()
	p := "knowledge/conventions/session-storage.md"

	if _, err := Resolve(f.ctx, f.store, "session-storage", "pq-0000", Options{}); err == nil ||
		!strings.Contains(err.Error(), "not a side") || !strings.Contains(err.Error(), l1+", "+l2) && !strings.Contains(err.Error(), l2+", "+l1) {
		t.Errorf("resolve with a source of no side: %v", err)
	}
	res, err := Resolve(f.ctx, f.store, "session-storage", l2, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Path != p || res.Kept != l2 || !slices.Equal(res.SetAside, []string{l1}) || res.Status != changelog.StatusCurrent || res.Commit == "" {
		t.Errorf("resolve: %+v", res)
	}
	if msg := testgit.Run(t, f.store.Repo.Path, "log", "-1", "--format=%B", project.GlobalBranch); !strings.Contains(msg, TrailerKey+": resolve") {
		t.Errorf("the commit's message: %q", msg)
	}
	a := f.article(p)
	today := time.Now().UTC().Format(time.DateOnly)
	if a.Status != changelog.StatusCurrent || !slices.Equal(a.Sources, []string{l2}) || strings.Contains(a.Body, conflictHeading) ||
		!strings.Contains(a.Body, resolvedHeading+"\n\n- "+today+": kept "+l2+" over "+l1+".") || strings.Contains(a.Body, "Sessions live in Redis.") {
		t.Errorf("the resolved article: %+v", a)
	}
	if strings.Contains(f.file(IndexPath), "disputed") {
		t.Error("the index still shows the article disputed")
	}
	if again := f.update(); again.Changed() {
		t.Errorf("an update after resolve changed something: %+v", again)
	}
	if _, err := Resolve(f.ctx, f.store, "session-storage", l2, Options{}); err == nil || !strings.Contains(err.Error(), "not disputed") {
		t.Errorf("resolve of an article that is not disputed: %v", err)
	}
	// A new contradiction is a new dispute; the side set aside stays out.
	l3 := f.learn("Sessions live in memory.", changelog.TypeConvention, "sessions", "session storage")
	f.update()
	a = f.article(p)
	if a.Status != changelog.StatusDisputed || !slices.Equal(a.Sources, []string{l2, l3}) || strings.Contains(a.Body, "Sessions live in Redis.") {
		t.Errorf("after a new contradiction: %+v", a)
	}
	if _, err := Resolve(f.ctx, f.store, "nothing-here", l2, Options{}); err == nil || !strings.Contains(err.Error(), "not on global") {
		t.Errorf("resolve of no article: %v", err)
	}
}

// TestResolveAPersonsArticleChangesOnlyTheConflict: an article a person
// wrote with a Conflict section of its own is resolved in place: its
// status, its sources and that section change, the rest stays.
func TestResolveAPersonsArticleChangesOnlyTheConflict(t *testing.T) {
	f := newFixture(t)
	l1 := f.learn("Deploys run on Tuesdays.", changelog.TypeGuide, "deploy", "deploy day")
	l2 := f.learn("Deploys run any day but Friday.", changelog.TypeGuide, "deploy", "release train")
	p := "knowledge/operations/deploy-day.md"
	text := "---\ntype: article\ntitle: Deploy day\ndescription: When we deploy.\ntopic: operations\ncreated: 2025-01-01T00:00:00Z\n" +
		"updated: 2025-01-02T00:00:00Z\ntimestamp: 2025-01-02T00:00:00Z\nsources: [" + l1 + ", " + l2 + "]\nconfidence: medium\nstatus: disputed\ncurated_by: human\nowner: ops\n---\n\n" +
		"# Summary\n\nWe deploy once a week.\n\n# Conflict\n\n- " + l1 + " says Tuesdays.\n- " + l2 + " says any day but Friday.\n\n# Related\n\n- [Runbook](runbook.md)\n"
	f.asPerson("the deploy article", func(dir string) {
		file := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	if _, err := Resolve(f.ctx, f.store, "deploy-day", "issue:#9", Options{}); err == nil || !strings.Contains(err.Error(), "not a side") {
		t.Errorf("resolve with a source of no side: %v", err)
	}
	res, err := Resolve(f.ctx, f.store, "deploy-day", l1, Options{})
	if err != nil {
		t.Fatal(err)
	}
	today := time.Now().UTC().Format(time.DateOnly)
	got := f.file(p)
	a := f.article(p)
	if !slices.Equal(res.SetAside, []string{l2}) || a.Status != changelog.StatusCurrent || !slices.Equal(a.Sources, []string{l1}) || a.CuratedBy != changelog.CuratedHuman ||
		!strings.HasSuffix(got, "\n\n# Summary\n\nWe deploy once a week.\n\n# Resolved\n\n- "+today+": kept "+l1+" over "+l2+".\n\n# Related\n\n- [Runbook](runbook.md)\n") ||
		!strings.Contains(got, "owner: ops") {
		t.Errorf("resolve %+v; the article:\n%s", res, got)
	}
}
