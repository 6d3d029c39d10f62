package readmodel

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testrecords"
	"github.com/planq-dev/planq/project"
)

// ringRecords are two learnings that supersede each other (as a hand-made
// commit can write them), a third that supersedes itself, and one more
// that is no ring: each ring's newer version is the one readers show.
func ringRecords(t *testing.T) (recs []*changelog.Record, shown []string) {
	t.Helper()
	at := time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)
	add := func(text string, minutes int) *changelog.Record {
		r, err := changelog.NewLearning(changelog.LearningInput{Text: text, Type: changelog.TypeGuide, Domain: "ring"})
		if err != nil {
			t.Fatal(err)
		}
		r.Agent, r.Timestamp = "a", at.Add(time.Duration(minutes)*time.Minute)
		r.ID = changelog.NewID(r.Agent, r.Kind, r.Body, r.Timestamp)
		recs = append(recs, r)
		return r
	}
	older, newer := add("ring one alpha", 0), add("ring two beta", 1)
	older.Supersedes, newer.Supersedes = newer.ID, older.ID
	self := add("ring three gamma", 2)
	self.Supersedes = self.ID
	plain := add("plain four delta", 3)
	return recs, []string{newer.ID, self.ID, plain.ID}
}

// Of versions that supersede each other in a ring, every reader shows one,
// the newest, marked; none shows none (issue 25, item 10).
func TestReadersShowTheNewestOfARing(t *testing.T) {
	recs, shown := ringRecords(t)
	repo := testrecords.RepoWith(t, testrecords.Rendered(t, nil))
	files := map[string][]byte{}
	for p, data := range testrecords.Rendered(t, recs) {
		if strings.HasPrefix(p, "learnings/") {
			files[p] = data
		}
	}
	tip, err := repo.CreateBranch(t.Context(), project.AgentBranch("a"), project.GlobalBranch, files, "by hand")
	if err != nil {
		t.Fatal(err)
	}
	// And on global, where the team view reads them.
	old, err := repo.Tip(project.GlobalBranch)
	if err != nil {
		t.Fatal(err)
	}
	if err := repo.SwapGlobal(t.Context(), "test", old, tip); err != nil {
		t.Fatal(err)
	}
	marked := func(what string, recs []*changelog.Record) {
		t.Helper()
		var got []string
		for _, r := range recs {
			got = append(got, r.ID)
			if want := r.ID != shown[2]; r.SupersedesRing != want {
				t.Errorf("%s: %s marked %v, want %v", what, r.ID, r.SupersedesRing, want)
			}
			if want := r.ID != shown[2]; strings.Contains(r.Line(), changelog.RingMark) != want {
				t.Errorf("%s: %s reads %q", what, r.ID, r.Line())
			}
		}
		slices.Sort(got)
		want := slices.Sorted(slices.Values(shown))
		if !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", what, got, want)
		}
	}
	cacheDir := t.TempDir()
	for round := range 2 { // the second from the views the first kept
		rd := Open(repo, cacheDir)
		learnings, _, _, err := rd.Learnings(LearningFilter{})
		if err != nil {
			t.Fatal(err)
		}
		marked("learnings", learnings)
		set, err := rd.Branch(project.AgentBranch("a"), changelog.KindLearning)
		if err != nil {
			t.Fatal(err)
		}
		marked("a branch's current", set.Current())
		view, err := rd.Agent("a", project.AgentBranch("a"), MaxTeamLearnings)
		if err != nil {
			t.Fatal(err)
		}
		marked("the team's view", view.Team)
		res, err := rd.Search(Query{Text: "ring alpha beta gamma delta"})
		if err != nil {
			t.Fatal(err)
		}
		var hits []string
		for _, h := range res.Hits {
			hits = append(hits, h.ID)
			if want := h.ID != shown[2]; h.SupersedesRing != want || strings.Contains(h.Header(), changelog.RingMark) != want {
				t.Errorf("round %d: search hit %s marked %v: %s", round, h.ID, h.SupersedesRing, h.Header())
			}
		}
		if slices.Sort(hits); !slices.Equal(hits, slices.Sorted(slices.Values(shown))) {
			t.Errorf("round %d: search found %v, want %v", round, hits, shown)
		}
		st, _, err := rd.Status(context.Background(), time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC), ShelfLife, "")
		if err != nil || len(st) != 1 || st[0].Current != 3 || st[0].Superseded != 1 {
			t.Errorf("round %d: status %+v, %v: want 3 current, 1 superseded", round, st, err)
		}
		agents, _, err := rd.Agents()
		if err != nil || len(agents) != 1 || agents[0].Records[string(changelog.KindLearning)] != 3 {
			t.Errorf("round %d: agents %+v, %v: want 3 learnings", round, agents, err)
		}
	}
}

// Promote's check: a ring the landing records would close beside global's,
// named as validate names it; a ring global holds alone, or records that
// only lead into one, are no landing's.
func TestHoldingsFindTheRingsALandingCloses(t *testing.T) {
	recs, _ := ringRecords(t)
	older, newer, self, plain := recs[0], recs[1], recs[2], recs[3]
	// global holds the older of the ring of two.
	repo := testrecords.RepoWith(t, testrecords.Rendered(t, []*changelog.Record{older}))
	tip, err := repo.Tip(project.GlobalBranch)
	if err != nil {
		t.Fatal(err)
	}
	rd := Open(repo, t.TempDir())
	h, err := rd.Holdings(tip)
	if err != nil {
		t.Fatal(err)
	}
	rings, err := h.Rings([]*changelog.Record{newer, self, plain})
	if err != nil {
		t.Fatal(err)
	}
	least := min(older.ID, newer.ID)
	want := []Ring{{Path: changelog.RecordPath(older), IDs: []string{least, max(older.ID, newer.ID)}}, {Path: changelog.RecordPath(self), IDs: []string{self.ID}}}
	if least == newer.ID {
		want[0].Path = changelog.RecordPath(newer)
	}
	slices.SortFunc(rings, func(a, b Ring) int { return strings.Compare(a.IDs[0], b.IDs[0]) })
	slices.SortFunc(want, func(a, b Ring) int { return strings.Compare(a.IDs[0], b.IDs[0]) })
	if len(rings) != 2 || rings[0].Path != want[0].Path || !slices.Equal(rings[0].IDs, want[0].IDs) ||
		rings[1].Path != want[1].Path || !slices.Equal(rings[1].IDs, want[1].IDs) {
		t.Errorf("rings %+v, want %+v", rings, want)
	}
	if rings, err := h.Rings([]*changelog.Record{plain}); err != nil || len(rings) != 0 {
		t.Errorf("a record of no ring: %+v, %v", rings, err)
	}
	// Validate says the same of the ring, word for word.
	all := testrecords.RepoWith(t, testrecords.Rendered(t, recs))
	findings, err := Open(all, t.TempDir()).Validate()
	if err != nil {
		t.Fatal(err)
	}
	var problems []string
	for _, f := range findings {
		if f.Check == CheckCycle {
			problems = append(problems, f.Path+": "+f.Problem)
		}
	}
	for _, r := range want {
		if !slices.Contains(problems, r.Path+": "+r.Problem()) {
			t.Errorf("validate said %q, not %q", problems, r.Path+": "+r.Problem())
		}
	}
}
