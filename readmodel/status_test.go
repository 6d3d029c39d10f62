package readmodel

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testrecords"
	"github.com/planq-dev/planq/project"
)

// A domain's status counts each learning once by its state, type and
// classification, its age against its shelf life, and the weeks it was
// written in.
func TestStatusCountsEachLearningByState(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	var recs []*changelog.Record
	add := func(domain string, typ changelog.Type, class changelog.Classification, age time.Duration) *changelog.Record {
		t.Helper()
		r, err := changelog.NewLearning(changelog.LearningInput{Text: fmt.Sprintf("learning %d", len(recs)), Type: typ, Domain: domain, Classification: class, Resolution: "r"})
		if err != nil {
			t.Fatal(err)
		}
		r.Agent, r.Timestamp = "a", now.Add(-age)
		r.ID = changelog.NewID(r.Agent, r.Kind, r.Body, r.Timestamp)
		recs = append(recs, r)
		return r
	}
	day := 24 * time.Hour
	// db: written early, then hardly at all (flattening).
	old := add("db", changelog.TypePattern, changelog.Tactical, 50*day) // superseded below
	add("db", changelog.TypeConvention, changelog.Foundational, 49*day)
	wrong := add("db", changelog.TypeFailure, changelog.Observational, 40*day) // retracted below
	add("db", changelog.TypePattern, changelog.Tactical, 45*day).Status = changelog.StatusDisputed
	newer := add("db", changelog.TypePattern, changelog.Tactical, 2*day)
	newer.Supersedes = old.ID
	tomb, err := changelog.NewTombstone(wrong, "measured wrong")
	if err != nil {
		t.Fatal(err)
	}
	tomb.Agent, tomb.Timestamp = "a", now.Add(-day)
	tomb.ID = changelog.NewID(tomb.Agent, tomb.Kind, tomb.Body, tomb.Timestamp)
	recs = append(recs, tomb)
	// An archived one (prune's tombstone) is counted apart.
	gone := add("db", changelog.TypePattern, changelog.Tactical, 30*day)
	archive, err := changelog.NewTombstone(gone, "past its shelf life")
	if err != nil {
		t.Fatal(err)
	}
	archive.Archived, archive.Agent, archive.Timestamp = true, "global", now.Add(-day)
	archive.ID = changelog.NewID(archive.Agent, archive.Kind, archive.Body, archive.Timestamp)
	recs = append(recs, archive)
	// ci: fresh, and one old but used two days ago (uses/b.tsv).
	add("ci", changelog.TypeFailure, changelog.Observational, 3*day)
	used := add("ci", changelog.TypeFailure, changelog.Observational, 40*day)

	// ci: one archived, then restored (a new version superseding the
	// archive record): current again, its archived version superseded.
	back := add("ci", changelog.TypePattern, changelog.Observational, 60*day)
	marker, err := changelog.NewTombstone(back, "past its shelf life")
	if err != nil {
		t.Fatal(err)
	}
	marker.Archived, marker.Agent, marker.Timestamp = true, "global", now.Add(-5*day)
	marker.ID = changelog.NewID(marker.Agent, marker.Kind, marker.Body, marker.Timestamp)
	recs = append(recs, marker)
	restored := *back
	restored.Timestamp = now.Add(-day)
	restored.ID, restored.Supersedes = changelog.NewID(restored.Agent, restored.Kind, restored.Body, restored.Timestamp), marker.ID
	recs = append(recs, &restored)

	files := testrecords.Rendered(t, recs)
	files["uses/b.tsv"] = FormatUses(map[string]Use{used.ID: {Count: 3, Last: now.Add(-2 * day)}})
	got, problems, err := Open(testrecords.RepoWith(t, files), t.TempDir()).Status(context.Background(), now, ShelfLife, "")
	if err != nil || len(problems) > 0 {
		t.Fatal(err, problems)
	}
	if len(got) != 2 || got[0].Domain != "ci" || got[1].Domain != "db" {
		t.Fatalf("domains %+v", got)
	}
	db := got[1]
	want := DomainStatus{Domain: "db", Current: 3, Superseded: 1, Retracted: 1, Archived: 1, Disputed: 1,
		ByType:           map[string]int{"convention": 1, "pattern": 2},
		ByClassification: map[string]int{"foundational": 1, "tactical": 2},
		Newest:           now.Add(-2 * day), Oldest: now.Add(-49 * day),
		PastShelfLife: 1,                                                                         // the disputed tactical one, 45 days old; the foundational never expires
		Weekly:        []int{2, 1, 1, 1, 0, 0, 0, 1}, Flattening: true, Governance: GovernanceOK, // 50 and 49 days ago, 45, 40, 30, then 2
		DisputedWeekly: []int{0, 1, 0, 0, 0, 0, 0, 0}}
	db.Newest, db.Oldest = db.Newest.UTC(), db.Oldest.UTC()
	if !reflect.DeepEqual(db, want) {
		t.Errorf("db\n got  %+v\n want %+v", db, want)
	}
	if ci := got[0]; ci.Current != 3 || ci.PastShelfLife != 0 || ci.Archived != 0 || ci.Superseded != 1 {
		t.Errorf("ci %+v: want 3 current (the one used two days ago is not past its shelf life, the restored one is fresh), "+
			"none archived, the restored one's archived version superseded", ci)
	}
	// The project's shelf life: observational never expires, tactical after
	// 60 days (the disputed one, 45 days old, is fresh again).
	custom := ShelfLivesOf(project.ShelfLife{Tactical: project.LifeSpan{Text: "60d", Span: 60 * day}, Observational: project.LifeSpan{Text: "never", Never: true}})
	got, _, err = Open(testrecords.RepoWith(t, files), t.TempDir()).Status(context.Background(), now, custom, "")
	if err != nil || got[1].PastShelfLife != 0 || got[0].PastShelfLife != 0 {
		t.Errorf("with tactical 60d, observational never: %+v, %v", got, err)
	}
	// Without the use, the 40-day-old observational learning is expired.
	delete(files, "uses/b.tsv")
	got, _, err = Open(testrecords.RepoWith(t, files), t.TempDir()).Status(context.Background(), now, ShelfLife, "")
	if err != nil || got[0].PastShelfLife != 1 {
		t.Errorf("without its use, ci: %+v, %v", got[0], err)
	}
	for n, want := range map[int]string{100: GovernanceOK, 101: GovernanceOver, 150: GovernanceSplit, 200: GovernanceHardLimit} {
		if got := governance(n); got != want {
			t.Errorf("governance(%d) = %q, want %q", n, got, want)
		}
	}
}
