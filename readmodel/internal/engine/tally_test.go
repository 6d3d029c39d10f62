package engine

import (
	"fmt"
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

// tallied are log entries over three months and learnings of two domains,
// one of them a new version of another, one retracted.
func tallied(t *testing.T) []*changelog.Record {
	t.Helper()
	at := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	var recs []*changelog.Record
	for i := range 90 {
		when := at.Add(time.Duration(i) * 19 * time.Hour)
		var r *changelog.Record
		var err error
		if i%3 == 0 {
			r, err = changelog.NewLearning(changelog.LearningInput{Text: fmt.Sprintf("learning %d", i), Type: changelog.TypePattern,
				Domain: []string{"ci", "db"}[i%2], Classification: changelog.Tactical})
		} else {
			r, err = changelog.NewLog(changelog.LogInput{Text: fmt.Sprintf("entry %d", i)})
		}
		recs = append(recs, testrecords.Stamped(t, r, err, fmt.Sprintf("a%d", i%3), when))
	}
	next := *recs[3]
	next.Body, next.Supersedes, next.Timestamp = "learning 3, again", recs[3].ID, recs[3].Timestamp.Add(time.Minute)
	next.ID = changelog.NewID(next.Agent, next.Kind, next.Body, next.Timestamp)
	tomb, err := changelog.NewTombstone(recs[1], "wrong")
	return append(recs, &next, testrecords.Stamped(t, tomb, err, "a1", at.Add(80*24*time.Hour)))
}

// logOf is what LogEntries finds, as IDs.
type logOf struct {
	Newest []string
	Counts map[string]int
	Latest map[string]string
}

func readLog(t *testing.T, rd testReader, walk bool) logOf {
	t.Helper()
	tips, err := rd.Tips()
	if err != nil {
		t.Fatal(err)
	}
	find := rd.LogEntries
	if walk {
		find = rd.EntriesWalk
	}
	found, _, err := find(tips, func(string) bool { return true }, SinceNanos(time.Time{}), 7, true)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := rd.Decode(found.Newest)
	if err != nil {
		t.Fatal(err)
	}
	out := logOf{Counts: found.Counts, Latest: map[string]string{}}
	for _, r := range recs {
		out.Newest = append(out.Newest, r.ID)
	}
	for a, ref := range found.Latest {
		r, err := rd.Decode([]Ref{ref})
		if err != nil {
			t.Fatal(err)
		}
		out.Latest[a] = r[0].ID
	}
	return out
}

func readStatus(t *testing.T, rd testReader) []DomainTally {
	t.Helper()
	tips, err := rd.Tips()
	if err != nil {
		t.Fatal(err)
	}
	tallies, _, ok, err := rd.StatusTallies(tips)
	if err != nil || !ok {
		t.Fatalf("status tallies: ok %v, %v", ok, err)
	}
	var out []DomainTally
	for _, d := range tallies {
		out = append(out, DomainTally{Domain: d.Domain, Current: d.Current, Superseded: d.Superseded, Retracted: d.Retracted,
			Archived: d.Archived, Disputed: d.Disputed, ByType: d.ByType, ByClassification: d.ByClassification, Newest: d.Newest, Oldest: d.Oldest})
	}
	return out
}

// A tally damaged anywhere is never read as what it says: the read that
// meets the damage answers by the walk, and the next one from a tally made
// again.
func TestDamagedTalliesAreMadeAgain(t *testing.T) {
	recs := tallied(t)
	repo := testrecords.RepoWith(t, testrecords.Rendered(t, recs))
	cacheDir := t.TempDir()
	first := open(repo, cacheDir)
	want, wantStatus := readLog(t, first, true), readStatus(t, first)
	if got := readLog(t, first, false); !reflect.DeepEqual(got, want) || first.TallyWalks() != 0 {
		t.Fatalf("from the tallies %+v (%d walks), by the walk %+v", got, first.TallyWalks(), want)
	}
	files, _ := filepath.Glob(filepath.Join(cacheDir, "views", "*-tally", "*", "*.view"))
	if len(files) != 5 { // three months of the log, two domains
		t.Fatalf("%d tallies, want 5: %v", len(files), files)
	}
	for _, file := range files {
		good, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, at := range []int{len(tallyMagic) + 2, len(tallyMagic) + 9, len(good) / 2, len(good) - 1} {
			bad := slices.Clone(good)
			bad[at] ^= 0x20
			if err := os.WriteFile(file, bad, 0o644); err != nil {
				t.Fatal(err)
			}
			rd := open(repo, cacheDir)
			if got := readLog(t, rd, false); !reflect.DeepEqual(got, want) {
				t.Errorf("%s damaged at %d: log %+v, want %+v", file, at, got, want)
			}
			if got := readStatus(t, rd); !reflect.DeepEqual(got, wantStatus) {
				t.Errorf("%s damaged at %d: status %+v, want %+v", file, at, got, wantStatus)
			}
			again := open(repo, cacheDir)
			if readLog(t, again, false); again.TallyWalks() != 0 {
				t.Errorf("%s damaged at %d: the tally was not made again", file, at)
			}
		}
	}
}

// A new entry makes a new tally for its month alone, and a read of kept
// tallies reads nothing from git.
func TestAWriteMakesOneTally(t *testing.T) {
	recs := tallied(t)
	repo := testrecords.RepoWith(t, testrecords.Rendered(t, recs))
	cacheDir := t.TempDir()
	readLog(t, open(repo, cacheDir), false)
	readStatus(t, open(repo, cacheDir))
	tallies := func() []string {
		files, _ := filepath.Glob(filepath.Join(cacheDir, "views", "*-tally", "*", "*.view"))
		return files
	}
	before := tallies()
	reads := 0
	warm := counting(repo, cacheDir, &reads)
	readLog(t, warm, false)
	readStatus(t, warm)
	if reads != 0 || warm.TallyWalks() != 0 {
		t.Errorf("a warm read read %d files from git, and walked %d times", reads, warm.TallyWalks())
	}
	newest := recs[0]
	for _, r := range recs {
		if r.Kind == changelog.KindLog && !r.Tombstone && r.Timestamp.After(newest.Timestamp) {
			newest = r
		}
	}
	added := testrecords.BranchWithOneMore(t, repo, newest, "one more entry")
	after := open(repo, cacheDir)
	got := readLog(t, after, false)
	if got.Newest[0] != added.ID || !reflect.DeepEqual(got, readLog(t, after, true)) {
		t.Errorf("after a new entry on a branch: %+v, want it first, as the walk", got)
	}
	if made := len(tallies()) - len(before); made != 1 {
		t.Errorf("a new entry made %d tallies, want 1 (its month's)", made)
	}
}

// Two versions that supersede each other, or copies of an entry that
// disagree on what it supersedes, leave the read to the walk.
func TestRingsAreLeftToTheWalk(t *testing.T) {
	recs := tallied(t)
	a, b := *recs[6], *recs[12]
	a.Domain = b.Domain
	a.ID = changelog.NewID(a.Agent, a.Kind, a.Body+" ring", a.Timestamp)
	a.Supersedes, b.Supersedes = b.ID, a.ID
	repo := testrecords.RepoWith(t, testrecords.Rendered(t, append(recs[:len(recs):len(recs)], &a, &b)))
	rd := open(repo, t.TempDir())
	tips, err := rd.Tips()
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok, err := rd.StatusTallies(tips); ok || err != nil {
		t.Errorf("a ring of versions: ok %v, %v; want it left to the walk", ok, err)
	}
	entry := *recs[2]
	entry.Supersedes = recs[4].ID
	data, err := changelog.Render(&entry)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := repo.CreateBranch(t.Context(), project.AgentBranch("a9"), project.GlobalBranch,
		map[string][]byte{changelog.RecordPath(&entry): data}, "a copy that disagrees"); err != nil {
		t.Fatal(err)
	}
	rd = open(repo, t.TempDir())
	if got, want := readLog(t, rd, false), readLog(t, rd, true); !reflect.DeepEqual(got, want) || rd.TallyWalks() != 1 {
		t.Errorf("copies that disagree: %+v (%d walks), want %+v by the walk", got, rd.TallyWalks(), want)
	}
}
