package readmodel

import (
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testrecords"
	"github.com/planq-dev/planq/project"
)

// teamRecords are a global of more learnings and decisions than a view
// shows: of every priority, some superseded, some disputed.
func teamRecords(t *testing.T) []*changelog.Record {
	t.Helper()
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	var recs []*changelog.Record
	add := func(r *changelog.Record, err error) *changelog.Record {
		t.Helper()
		r = testrecords.Stamped(t, r, err, fmt.Sprintf("a%d", len(recs)%3), at.Add(time.Duration(len(recs))*time.Hour))
		recs = append(recs, r)
		return r
	}
	types := []changelog.Type{changelog.TypeConvention, changelog.TypePattern, changelog.TypeFailure, changelog.TypeReference}
	classes := []changelog.Classification{changelog.Foundational, changelog.Tactical, changelog.Observational}
	for i := range 40 {
		in := changelog.LearningInput{Text: fmt.Sprintf("learning %d about the cache", i), Type: types[i%len(types)],
			Domain: []string{"ci", "db", "auth"}[i%3], Classification: classes[i%len(classes)], Resolution: "retry"}
		if i%7 == 6 { // a new version of the one before
			in.Supersedes = recs[len(recs)-1].ID
		}
		r := add(changelog.NewLearning(in))
		if i%11 == 3 {
			r.Status = changelog.StatusDisputed
		}
	}
	for i := range 14 {
		add(changelog.NewDecision(changelog.DecisionInput{Decision: fmt.Sprintf("decision %d", i), Rationale: "because"}))
	}
	return recs
}

// The team view kept in its file is the view made from global's rows, and
// both are global's current records ranked as Rank ranks them.
func TestTeamViewKeptIsTeamViewMade(t *testing.T) {
	recs := teamRecords(t)
	repo := testrecords.RepoWith(t, testrecords.Rendered(t, recs))
	cacheDir := t.TempDir()
	made, err := Open(repo, cacheDir).Agent("a0", project.GlobalBranch, MaxTeamLearnings)
	if err != nil {
		t.Fatal(err)
	}
	views, _ := filepath.Glob(filepath.Join(cacheDir, "views", "team", "*.view"))
	if len(views) != 1 {
		t.Fatalf("%d team views kept, want 1", len(views))
	}
	kept, err := Open(repo, cacheDir).Agent("a0", project.GlobalBranch, MaxTeamLearnings)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(kept, made) {
		t.Fatalf("the kept view differs from the one made:\nkept %+v\nmade %+v", kept, made)
	}

	current := changelog.Current(recs)
	learnings, decisions := OfKind(current, changelog.KindLearning), OfKind(current, changelog.KindDecision)
	Rank(learnings)
	Rank(decisions)
	if kept.TeamTotal != len(learnings) {
		t.Errorf("TeamTotal %d, want %d current learnings", kept.TeamTotal, len(learnings))
	}
	if got, want := ids(kept.Team), ids(learnings); !reflect.DeepEqual(got, want) {
		t.Errorf("team learnings\n got  %v\n want %v", got, want)
	}
	if got, want := ids(kept.TeamLearnings), ids(learnings[:MaxTeam]); !reflect.DeepEqual(got, want) {
		t.Errorf("first team learnings\n got  %v\n want %v", got, want)
	}
	if got, want := ids(kept.TeamDecisions), ids(decisions[:MaxTeam]); !reflect.DeepEqual(got, want) {
		t.Errorf("team decisions\n got  %v\n want %v", got, want)
	}
	var disputed []string
	for _, r := range learnings {
		if r.Status == changelog.StatusDisputed {
			disputed = append(disputed, r.ID)
		}
	}
	if got := ids(kept.Disputed); len(disputed) == 0 || !reflect.DeepEqual(got, disputed) {
		t.Errorf("disputed %v, want %v", got, disputed)
	}
}

func ids(recs []*changelog.Record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.ID
	}
	return out
}

// A team view's file that is damaged, cut short or of another version is
// made again from the rows, never trusted; a global that changed gets a
// view of its own.
func TestTeamViewIsMadeAgainNotTrusted(t *testing.T) {
	recs := teamRecords(t)
	repo := testrecords.RepoWith(t, testrecords.Rendered(t, recs))
	want, err := Open(repo, t.TempDir()).Agent("a0", project.GlobalBranch, MaxTeamLearnings)
	if err != nil {
		t.Fatal(err)
	}
	damage := map[string]func([]byte) []byte{
		"flipped":  func(b []byte) []byte { b[teamHeadSize+4] ^= 0x01; return b }, // another row: only the checksum tells
		"cut":      func(b []byte) []byte { return b[:len(b)-9] },
		"empty":    func([]byte) []byte { return nil },
		"version":  func(b []byte) []byte { b[0]++; return b },
		"bad rows": func(b []byte) []byte { return rowsBeyond(b) },
	}
	for name, damaged := range damage {
		t.Run(name, func(t *testing.T) {
			cacheDir := t.TempDir()
			if _, err := Open(repo, cacheDir).Agent("a0", project.GlobalBranch, MaxTeamLearnings); err != nil {
				t.Fatal(err)
			}
			views, _ := filepath.Glob(filepath.Join(cacheDir, "views", "team", "*.view"))
			if len(views) != 1 {
				t.Fatalf("%d team views kept, want 1", len(views))
			}
			data, err := os.ReadFile(views[0])
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(views[0], damaged(data), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := Open(repo, cacheDir).Agent("a0", project.GlobalBranch, MaxTeamLearnings)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("over a damaged view:\ngot  %+v\nwant %+v", got, want)
			}
		})
	}

	t.Run("global changed", func(t *testing.T) {
		cacheDir := t.TempDir()
		if _, err := Open(repo, cacheDir).Agent("a0", project.GlobalBranch, MaxTeamLearnings); err != nil {
			t.Fatal(err)
		}
		added := recs[0] // foundational: ranks first
		more := *added
		more.Body, more.Timestamp = "the newest foundational learning", added.Timestamp.Add(1000*time.Hour)
		more.ID = changelog.NewID(more.Agent, more.Kind, more.Body, more.Timestamp)
		changed := testrecords.RepoWith(t, testrecords.Rendered(t, append(slices.Clone(recs), &more))) // global as it was, and one more
		got, err := Open(changed, cacheDir).Agent("a0", project.GlobalBranch, MaxTeamLearnings)
		if err != nil {
			t.Fatal(err)
		}
		if got.TeamTotal != want.TeamTotal+1 || got.TeamLearnings[0].ID != more.ID {
			t.Fatalf("after a new learning in global: %d learnings, first %s; want %d, first %s", got.TeamTotal, got.TeamLearnings[0].ID, want.TeamTotal+1, more.ID)
		}
	})
}

// rowsBeyond points the file's first ref past its segment's rows, with the
// checksum made good: only the check of the rows can refuse it.
func rowsBeyond(b []byte) []byte {
	b[teamHeadSize+4] = 0xff
	b[teamHeadSize+5] = 0xff
	body := b[:len(b)-4]
	sum := crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli))
	return append(body, byte(sum), byte(sum>>8), byte(sum>>16), byte(sum>>24))
}

// OfKind keeps the records of kind k, in order.
func OfKind(recs []*changelog.Record, k changelog.Kind) []*changelog.Record {
	var out []*changelog.Record
	for _, r := range recs {
		if r.Kind == k {
			out = append(out, r)
		}
	}
	return out
}
