package readmodel

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testrecords"
	"github.com/planq-dev/planq/project"
)

func searchAll(t *testing.T, rd *Reader) []Results {
	t.Helper()
	return testrecords.AskAll(t, func(q string) (Results, int, error) {
		res, err := rd.Search(Query{Text: q})
		return res, len(res.Hits), err
	})
}

// A hit's lines are the file's, whether planq wrote the file (and its
// rendering is the file) or an agent did, in its own layout.
func TestSnippetLinesAreTheFiles(t *testing.T) {
	recs := testrecords.Samples(t)
	files := testrecords.Rendered(t, recs)
	handmade := []byte(strings.Join([]string{
		"---",
		"id: pq-00000000aa",
		"kind: learning",
		"type: convention",
		"domain: ci",
		"classification: tactical",
		"agent: auth",
		"timestamp: 2026-11-22T08:00:00Z",
		"",
		"---",
		"",
		"Written by hand.",
		"",
		"",
		"The flakiness of the overlay suite comes from its shared temp directory.",
		"",
	}, "\n"))
	files["learnings/ci/pq-00000000aa.md"] = handmade
	repo := testrecords.RepoWith(t, files)
	rd := Open(repo, t.TempDir())
	for _, c := range []struct {
		query, path, line string
	}{
		{"overlay flakiness", "learnings/ci/pq-00000000aa.md", "The flakiness of the overlay suite comes from its shared temp directory."},
		{"RS256", changelog.RecordPath(recs[2]), ""},
	} {
		res, err := rd.Search(Query{Text: c.query})
		if err != nil || len(res.Hits) == 0 {
			t.Fatalf("%q: %+v, err %v", c.query, res, err)
		}
		h := res.Hits[0]
		if h.Path != c.path {
			t.Fatalf("%q: first hit %s, want %s", c.query, h.Path, c.path)
		}
		data, _, err := rd.ReadFile(h.Path)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		if got := strings.Join(lines[h.From-1:h.To], "\n"); got != h.Snippet {
			t.Errorf("%q: lines %d-%d of the file are %q, the snippet %q", c.query, h.From, h.To, got, h.Snippet)
		}
		if c.line != "" && h.Snippet != c.line {
			t.Errorf("%q: snippet %q, want %q", c.query, h.Snippet, c.line)
		}
	}
}

// TestRelevantRanksAsSearchLessHandoffs: prime's relevant records are
// planq search's hits, handoffs left out, in the same order and with the
// same scores: the handoffs are counted, not shown, so they weigh in the
// ranking as they do in search.
func TestRelevantRanksAsSearchLessHandoffs(t *testing.T) {
	recs := testrecords.Samples(t)
	more, err := changelog.NewHandoff(changelog.HandoffInput{Text: "Refresh tokens: JWT validation is half done", To: "auth"})
	if err != nil {
		t.Fatal(err)
	}
	more.Agent, more.Timestamp = "api", recs[len(recs)-1].Timestamp.Add(time.Minute)
	more.ID = changelog.NewID(more.Agent, more.Kind, more.Body, more.Timestamp)
	recs = append(recs, more)
	rd := Open(testrecords.RepoWith(t, testrecords.Rendered(t, recs)), t.TempDir())

	task := "JWT validation refresh RS256 hangs"
	all, err := rd.Search(Query{Text: task, Limit: MaxSearchLimit})
	if err != nil {
		t.Fatal(err)
	}
	var want []Hit
	handoffs := 0
	for _, h := range all.Hits {
		if h.Kind == changelog.KindHandoff {
			handoffs++
			continue
		}
		want = append(want, h)
	}
	if handoffs == 0 || len(want) < 2 {
		t.Fatalf("search found %d handoffs and %d others; the test needs both", handoffs, len(want))
	}
	got, err := rd.Relevant([]string{task}, len(want))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("relevant records:\n%+v\nwant search's hits less its handoffs:\n%+v", got, want)
	}
}

// A --since past the times Unix nanoseconds hold finds nothing, and one
// before them everything: it is clamped, not overflowed.
func TestSearchSinceBeyondNanoseconds(t *testing.T) {
	rd := Open(testrecords.RepoWith(t, testrecords.Rendered(t, testrecords.Samples(t))), t.TempDir())
	for since, want := range map[time.Time]int{
		time.Date(2999, 1, 1, 0, 0, 0, 0, time.UTC): 0,
		time.Date(1500, 1, 1, 0, 0, 0, 0, time.UTC): 1,
	} {
		q := Query{Text: "go test hangs"}
		q.Since = since
		res, err := rd.Search(q)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) != want {
			t.Errorf("since %s: %d hits, want %d", since.Format(time.DateOnly), len(res.Hits), want)
		}
	}
}

// A record held on two branches counts once: a search over global and an
// agent branch that holds global's records and more ranks exactly as one
// over a single branch that holds them all. Searched twice, to read the
// copies found the first time from their file.
func TestRecordOnTwoBranchesCountsOnce(t *testing.T) {
	recs := testrecords.Samples(t)
	var more []*changelog.Record
	for _, r := range recs[:3] { // a log entry, a learning, a decision
		extra := *r
		extra.Body, extra.Timestamp = "unrelated words about lunch", r.Timestamp.Add(time.Hour)
		extra.ID = changelog.NewID(extra.Agent, extra.Kind, extra.Body, extra.Timestamp)
		more = append(more, &extra)
	}
	twoBranches := testrecords.RepoWith(t, testrecords.Rendered(t, recs))
	files := map[string][]byte{}
	for p, data := range testrecords.Rendered(t, more) {
		if filepath.Dir(p) != "." {
			files[p] = data
		}
	}
	if _, err := twoBranches.CreateBranch(t.Context(), "agent-auth", project.GlobalBranch, files, "more"); err != nil {
		t.Fatal(err)
	}
	oneBranch := testrecords.RepoWith(t, testrecords.Rendered(t, append(slices.Clone(recs), more...)))
	want := searchAll(t, Open(oneBranch, t.TempDir()))
	cacheDir := t.TempDir()
	for round := range 2 {
		if got := searchAll(t, Open(twoBranches, cacheDir)); !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: over two branches\ngot  %+v\nwant %+v", round, got, want)
		}
	}
	// A copy unmarked in a file with its bits otherwise whole: only the
	// checksum tells, and the copies are found again.
	kept, _ := filepath.Glob(filepath.Join(cacheDir, "views", "copies", "*", "*.view"))
	if len(kept) == 0 {
		t.Fatal("no copies kept")
	}
	for _, f := range kept {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// The second segment's bits, where the copies are: the first
		// holds every record first.
		if binary.LittleEndian.Uint32(data[4:]) < 2 {
			continue
		}
		at := 12 + (int(binary.LittleEndian.Uint32(data[8:]))+7)/8
		n := int(binary.LittleEndian.Uint32(data[at:]))
		clear(data[at+4 : at+4+(n+7)/8])
		if err := os.WriteFile(f, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := searchAll(t, Open(twoBranches, cacheDir)); !reflect.DeepEqual(got, want) {
		t.Fatalf("over damaged copies\ngot  %+v\nwant %+v", got, want)
	}
}
