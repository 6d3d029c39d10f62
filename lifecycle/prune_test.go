package lifecycle

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/internal/testkit/testproject"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/staterepo"
	"github.com/planq-dev/planq/team"
)

// pruneFixture is a project whose agent wrote learnings of every shelf
// life, aged, and promoted all but one of them.
type pruneFixture struct {
	store *agent.Store
	now   time.Time
	// The learnings, by what they are.
	tacticalOld, tacticalNew, observationalOld, observationalUsed, foundational, agentOnly *changelog.Record
}

func newPruneFixture(t *testing.T) *pruneFixture {
	t.Helper()
	store, a := testproject.Auth(t)
	ctx := context.Background()
	f := &pruneFixture{store: store, now: time.Now().UTC()}
	day := 24 * time.Hour
	aged := func(text string, class changelog.Classification, age time.Duration) *changelog.Record {
		t.Helper()
		r, err := changelog.NewLearning(changelog.LearningInput{Text: text, Type: changelog.TypePattern, Domain: "auth", Classification: class})
		if err != nil {
			t.Fatal(err)
		}
		r.Timestamp = f.now.Add(-age).Truncate(time.Second)
		return r
	}
	f.tacticalOld = aged("Old tactical note about sessions", changelog.Tactical, 20*day)
	f.tacticalNew = aged("Recent tactical note about cookies", changelog.Tactical, 5*day)
	f.observationalOld = aged("Old observation about the login page", changelog.Observational, 40*day)
	f.observationalUsed = aged("Old observation still read about tokens", changelog.Observational, 40*day)
	f.foundational = aged("Passwords are hashed with argon2id", changelog.Foundational, 3*365*day)
	f.agentOnly = aged("Old tactical note no one promoted", changelog.Tactical, 20*day)
	all := []*changelog.Record{f.tacticalOld, f.tacticalNew, f.observationalOld, f.observationalUsed, f.foundational, f.agentOnly}
	if _, err := a.WriteMany(ctx, all, "aged learnings", agent.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	// A search showed one of the old observations today.
	if err := a.NoteUses([]string{f.observationalUsed.ID}); err != nil {
		t.Fatal(err)
	}
	entry, err := changelog.NewLog(changelog.LogInput{Text: "read about tokens"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Write(ctx, entry, agent.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range all[:len(all)-1] {
		ids = append(ids, r.ID)
	}
	if _, err := team.Promote(ctx, store, a, team.PromoteOptions{IDs: ids}); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *pruneFixture) tip(t *testing.T) staterepo.Hash {
	t.Helper()
	tip, err := f.store.Repo.Tip(project.GlobalBranch)
	if err != nil {
		t.Fatal(err)
	}
	return tip
}

// current is global's current learnings, by ID.
func (f *pruneFixture) current(t *testing.T) map[string]*changelog.Record {
	t.Helper()
	set, err := f.store.Records.Branch(project.GlobalBranch, changelog.KindLearning)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*changelog.Record{}
	for _, r := range set.Current() {
		out[r.ID] = r
	}
	return out
}

func archivedIDs(as []Archived) []string {
	var ids []string
	for _, a := range as {
		ids = append(ids, a.ID)
	}
	slices.Sort(ids)
	return ids
}

func sortedIDs(recs ...*changelog.Record) []string {
	var ids []string
	for _, r := range recs {
		ids = append(ids, r.ID)
	}
	slices.Sort(ids)
	return ids
}

// TestPruneArchivesWhatOutlivedItsShelfLife: of global's current
// learnings, prune takes those unused for longer than their
// classification's shelf life (the project's, when its config sets one),
// and only those: not the foundational, not one used since, not one only
// an agent holds. A dry run writes nothing; a prune writes one commit on
// global whose message names each, and an archive record each that takes
// it out of the current view; a second prune finds nothing.
func TestPruneArchivesWhatOutlivedItsShelfLife(t *testing.T) {
	f := newPruneFixture(t)
	ctx := context.Background()
	before := f.tip(t)

	dry, err := Prune(ctx, f.store, PruneOptions{Now: f.now, DryRun: true, Writer: "lead"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := archivedIDs(dry.Archived), sortedIDs(f.tacticalOld, f.observationalOld); !slices.Equal(got, want) {
		t.Fatalf("dry run would archive %v, want %v (the old tactical and the unused old observational)", got, want)
	}
	for _, a := range dry.Archived {
		if a.Marker != "" || a.ArchivedAt != nil {
			t.Errorf("a dry run names an archive record: %+v", a)
		}
		if a.ID == f.tacticalOld.ID && a.Reason != "past its shelf life (tactical, 14 days; never used)" {
			t.Errorf("reason %q", a.Reason)
		}
	}
	if dry.Commit != "" || f.tip(t) != before {
		t.Fatalf("a dry run wrote: commit %q, global %s -> %s", dry.Commit, before, f.tip(t))
	}

	// The project's shelf lives: tactical 3 days, observational never.
	f.store.Project.Config.ShelfLife = project.ShelfLife{
		Tactical:      project.LifeSpan{Text: "3d", Span: 72 * time.Hour},
		Observational: project.LifeSpan{Text: "never", Never: true},
	}
	custom, err := Prune(ctx, f.store, PruneOptions{Now: f.now, DryRun: true, Writer: "lead"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := archivedIDs(custom.Archived), sortedIDs(f.tacticalOld, f.tacticalNew); !slices.Equal(got, want) {
		t.Fatalf("with tactical 3d, observational never: would archive %v, want %v", got, want)
	}
	f.store.Project.Config.ShelfLife = project.ShelfLife{}

	res, err := Prune(ctx, f.store, PruneOptions{Now: f.now, Writer: "lead"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := archivedIDs(res.Archived), archivedIDs(dry.Archived); !slices.Equal(got, want) {
		t.Fatalf("prune archived %v, its dry run said %v", got, want)
	}
	tip := f.tip(t)
	if res.Commit != tip.String() {
		t.Fatalf("prune's commit %s is not global's tip %s", res.Commit, tip)
	}
	gitDir := f.store.Project.StateRepo()
	if n := testgit.Run(t, gitDir, "rev-list", "--count", before.String()+".."+tip.String()); n != "1" {
		t.Errorf("prune made %s commits on global, want 1", n)
	}
	msg := testgit.Run(t, gitDir, "log", "-1", "--format=%B", tip.String())
	for _, r := range []*changelog.Record{f.tacticalOld, f.observationalOld} {
		if line := "- " + r.ID + " [auth/pattern] " + readmodel.Title(r); !strings.Contains(msg, line) {
			t.Errorf("prune's message lacks %q:\n%s", line, msg)
		}
	}

	current := f.current(t)
	for _, r := range []*changelog.Record{f.tacticalOld, f.observationalOld} {
		if current[r.ID] != nil {
			t.Errorf("%s is still current on global after prune", r.ID)
		}
	}
	for _, r := range []*changelog.Record{f.tacticalNew, f.observationalUsed, f.foundational} {
		if current[r.ID] == nil {
			t.Errorf("%s (%s) was taken out, not only the expired", r.ID, r.Body)
		}
	}
	for _, a := range res.Archived {
		path := changelog.RecordPath(&changelog.Record{ID: a.Marker, Kind: changelog.KindLearning, Domain: "auth"})
		data, err := f.store.Repo.ReadFile(tip, path)
		if err != nil {
			t.Fatalf("archive record %s of %s: %v", a.Marker, a.ID, err)
		}
		m, err := changelog.Parse(path, data)
		if err != nil {
			t.Fatal(err)
		}
		if !m.Tombstone || !m.Archived || m.Supersedes != a.ID || m.Agent != "lead" || m.Body != "Archived "+a.ID+": "+a.Reason {
			t.Errorf("archive record of %s: %+v", a.ID, m)
		}
		if _, err := f.store.Repo.ReadFile(tip, changelog.RecordPath(&changelog.Record{ID: a.ID, Kind: changelog.KindLearning, Domain: "auth"})); err != nil {
			t.Errorf("%s left global's tree: nothing is deleted (%v)", a.ID, err)
		}
	}

	again, err := Prune(ctx, f.store, PruneOptions{Now: f.now, Writer: "lead"})
	if err != nil || len(again.Archived) != 0 || again.Commit != "" || f.tip(t) != tip {
		t.Errorf("a second prune: %+v, %v, global %s -> %s; want nothing", again, err, tip, f.tip(t))
	}
}

// TestRestoreBringsBackAFreshVersion: archive list shows what prune took;
// restore (by the learning's ID or its archive record's) writes one commit
// on global with a new version that supersedes the archive record, says
// what the original said, and starts its shelf life afresh; restoring one
// twice, one never archived, an unknown ID or no ID at all is refused and
// changes nothing.
func TestRestoreBringsBackAFreshVersion(t *testing.T) {
	f := newPruneFixture(t)
	ctx := context.Background()
	if _, err := Prune(ctx, f.store, PruneOptions{Now: f.now, Writer: "lead"}); err != nil {
		t.Fatal(err)
	}
	list, err := ArchiveList(f.store)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := archivedIDs(list), sortedIDs(f.tacticalOld, f.observationalOld); !slices.Equal(got, want) {
		t.Fatalf("archive list %v, want %v", got, want)
	}
	markerOf := map[string]string{}
	for _, a := range list {
		if a.Marker == "" || a.ArchivedAt == nil || !strings.HasPrefix(a.Reason, "past its shelf life") || a.Title == "" {
			t.Errorf("archive list entry %+v", a)
		}
		markerOf[a.ID] = a.Marker
	}

	before := f.tip(t)
	r, err := Restore(ctx, f.store, f.tacticalOld.ID, "lead")
	if err != nil {
		t.Fatal(err)
	}
	tip := f.tip(t)
	if r.ID != f.tacticalOld.ID || r.Marker != markerOf[f.tacticalOld.ID] || r.Commit != tip.String() {
		t.Fatalf("restore said %+v (global's tip %s)", r, tip)
	}
	if n := testgit.Run(t, f.store.Project.StateRepo(), "rev-list", "--count", before.String()+".."+tip.String()); n != "1" {
		t.Errorf("restore made %s commits on global, want 1", n)
	}
	back := f.current(t)[r.Restored]
	if back == nil {
		t.Fatalf("restored version %s is not current on global", r.Restored)
	}
	if back.Supersedes != r.Marker || back.Body != f.tacticalOld.Body || back.Domain != f.tacticalOld.Domain ||
		back.Classification != f.tacticalOld.Classification || back.Type != f.tacticalOld.Type || back.Tombstone || back.Archived {
		t.Errorf("restored version %+v of %+v", back, f.tacticalOld)
	}
	if !back.Timestamp.After(f.tacticalOld.Timestamp) || time.Since(back.Timestamp) > time.Minute {
		t.Errorf("restored version written %s: its shelf life must start now", back.Timestamp)
	}
	dry, err := Prune(ctx, f.store, PruneOptions{Now: time.Now(), DryRun: true, Writer: "lead"})
	if err != nil || len(dry.Archived) != 0 {
		t.Errorf("after restore, prune would archive %+v (%v): the restored one is fresh", dry.Archived, err)
	}

	// By its archive record's ID.
	if r2, err := Restore(ctx, f.store, markerOf[f.observationalOld.ID], "lead"); err != nil || r2.ID != f.observationalOld.ID {
		t.Fatalf("restore by archive record: %+v, %v", r2, err)
	}
	if list, err := ArchiveList(f.store); err != nil || len(list) != 0 {
		t.Errorf("archive list after both came back: %+v, %v", list, err)
	}

	tip = f.tip(t)
	for _, bad := range []struct {
		id   string
		kind planqerr.Kind
		says string
	}{
		{f.tacticalOld.ID, planqerr.Exists, "is restored already, as " + r.Restored},
		{markerOf[f.tacticalOld.ID], planqerr.Exists, "is restored already"},
		{f.foundational.ID, planqerr.Invalid, "is not archived"},
		{r.Restored, planqerr.Invalid, "is not archived"},
		{"pq-0123456789", planqerr.NotFound, "no such learning on global"},
		{f.agentOnly.ID, planqerr.NotFound, "no such learning on global"},
		{"nonsense", planqerr.Invalid, "is not a record id"},
	} {
		_, err := Restore(ctx, f.store, bad.id, "lead")
		if !planqerr.Is(err, bad.kind) || !strings.Contains(err.Error(), bad.says) {
			t.Errorf("restore %s: %v, want %v saying %q", bad.id, err, bad.kind, bad.says)
		}
		if f.tip(t) != tip {
			t.Fatalf("a refused restore of %s moved global", bad.id)
		}
	}
}
