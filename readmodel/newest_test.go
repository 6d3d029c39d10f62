package readmodel

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
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

// logRecords are log entries of several agents over months, two of them at
// the same instant (their IDs break the tie).
func logRecords(t *testing.T) []*changelog.Record {
	t.Helper()
	at := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	var recs []*changelog.Record
	var newest *changelog.Record
	for i := range 60 {
		by, when := fmt.Sprintf("a%d", i*7%4), at.Add(time.Duration(i*i%97)*24*time.Hour)
		if i == 59 { // at the same instant as the newest of all, by the same agent
			by, when = newest.Agent, newest.Timestamp
		}
		r, err := changelog.NewLog(changelog.LogInput{Text: fmt.Sprintf("step %d", i)})
		r = testrecords.Stamped(t, r, err, by, when)
		recs = append(recs, r)
		if newest == nil || r.Timestamp.After(newest.Timestamp) {
			newest = r
		}
	}
	return recs
}

// latestOf is Latest's answer from the records themselves: each agent's
// newest entry, by time and then ID.
func latestOf(recs []*changelog.Record) map[string]string {
	newest := map[string]*changelog.Record{}
	for _, r := range recs {
		cur := newest[r.Agent]
		if cur == nil || r.Timestamp.After(cur.Timestamp) || (r.Timestamp.Equal(cur.Timestamp) && r.ID > cur.ID) {
			newest[r.Agent] = r
		}
	}
	out := map[string]string{}
	for a, r := range newest {
		out[a] = r.Title()
	}
	return out
}

func latestTitles(t *testing.T, rd *Reader) map[string]string {
	t.Helper()
	acts, err := rd.Latest()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, a := range acts {
		out[a.Agent] = a.Title
	}
	return out
}

// Each agent's latest entry is the same whether its directory's newest
// rows are found or read from their file, damaged files are not trusted,
// and a branch with a newer entry is heard.
func TestLatestKeptIsLatestFound(t *testing.T) {
	recs := logRecords(t)
	repo := testrecords.RepoWith(t, testrecords.Rendered(t, recs))
	want := latestOf(recs)
	cacheDir := t.TempDir()
	if got := latestTitles(t, Open(repo, cacheDir)); !reflect.DeepEqual(got, want) {
		t.Fatalf("found: %v, want %v", got, want)
	}
	files, _ := filepath.Glob(filepath.Join(cacheDir, "views", "newest", "*", "*.view"))
	if len(files) != 1 {
		t.Fatalf("%d files of newest rows, want 1 (global's log)", len(files))
	}
	if got := latestTitles(t, Open(repo, cacheDir)); !reflect.DeepEqual(got, want) {
		t.Fatalf("kept: %v, want %v", got, want)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	// Another row of the same agent, older: only the checksum tells.
	rows := slices.Clone(recs)
	changelog.SortByTime(rows) // the segment's order
	first := binary.LittleEndian.Uint32(data)
	for j := range rows {
		if j != int(first) && rows[j].Agent == rows[first].Agent {
			binary.LittleEndian.PutUint32(data, uint32(j))
			break
		}
	}
	if err := os.WriteFile(files[0], data, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := latestTitles(t, Open(repo, cacheDir)); !reflect.DeepEqual(got, want) {
		t.Fatalf("over a damaged file: %v, want %v", got, want)
	}
	newest := recs[0]
	for _, r := range recs {
		if r.Timestamp.After(newest.Timestamp) {
			newest = r
		}
	}
	added := testrecords.BranchWithOneMore(t, repo, newest, "the newest step") // an hour after the newest
	want = latestOf(append(recs, &added))
	if want[added.Agent] != "the newest step" {
		t.Fatalf("the test's entry is not its agent's newest: %v", want)
	}
	if got := latestTitles(t, Open(repo, cacheDir)); !reflect.DeepEqual(got, want) {
		t.Fatalf("after a newer entry on a branch: %v, want %v", got, want)
	}
}

// The log, of all agents or of one, since a time or not, cut or not, is
// the entries themselves sorted newest first, each once though several
// branches hold it, with each agent's count and latest entry; from the
// kept orders as from the rows.
func TestLogIsTheEntriesNewestFirst(t *testing.T) {
	recs := logRecords(t)
	rng := rand.New(rand.NewPCG(3, 4))
	var inGlobal []*changelog.Record
	onBranch := map[string][]*changelog.Record{}
	for _, r := range recs {
		switch rng.IntN(3) {
		case 0:
			inGlobal = append(inGlobal, r)
		case 1:
			onBranch["agent-"+r.Agent] = append(onBranch["agent-"+r.Agent], r)
		default: // on two branches
			onBranch["agent-"+r.Agent] = append(onBranch["agent-"+r.Agent], r)
			onBranch["agent-a9"] = append(onBranch["agent-a9"], r)
		}
	}
	repo := testrecords.RepoWith(t, testrecords.Rendered(t, inGlobal))
	for b, rs := range onBranch {
		files := map[string][]byte{}
		for p, data := range testrecords.Rendered(t, rs) {
			if filepath.Dir(p) != "." {
				files[p] = data
			}
		}
		if _, err := repo.CreateBranch(context.Background(), b, project.GlobalBranch, files, "more"); err != nil {
			t.Fatal(err)
		}
	}
	sorted := slices.Clone(recs)
	changelog.SortByTime(sorted)
	slices.Reverse(sorted)
	midway := sorted[len(sorted)/2].Timestamp
	cacheDir := t.TempDir()
	for _, opts := range []LogOptions{
		{All: true}, {All: true, Limit: 5}, {All: true, Limit: 1}, {All: true, Since: midway, Limit: 7},
		{Agent: "a1"}, {Agent: "a2", Limit: 3}, {Agent: "a3", Since: midway},
		// Beyond the times a row holds in Unix nanoseconds.
		{All: true, Since: time.Date(2999, 1, 1, 0, 0, 0, 0, time.UTC)}, {All: true, Since: time.Date(1500, 1, 1, 0, 0, 0, 0, time.UTC), Limit: 2},
	} {
		var want []string
		count := map[string]int{}
		latest := map[string]string{}
		for _, r := range sorted {
			if (!opts.All && r.Agent != opts.Agent) || r.Timestamp.Before(opts.Since) {
				continue
			}
			if opts.Limit == 0 || len(want) < opts.Limit {
				want = append(want, r.ID)
			}
			if count[r.Agent]++; count[r.Agent] == 1 {
				latest[r.Agent] = r.Title()
			}
		}
		for round, rd := range []*Reader{Open(repo, cacheDir), Open(repo, cacheDir)} {
			view, err := rd.Log(opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(view.Entries); !slices.Equal(got, want) {
				t.Errorf("%+v (read %d): entries\n got  %v\n want %v", opts, round, got, want)
			}
			if !opts.All {
				continue
			}
			gotCount, gotLatest := map[string]int{}, map[string]string{}
			for _, a := range view.Agents {
				gotCount[a.Agent], gotLatest[a.Agent] = a.Entries, a.Title
			}
			if !reflect.DeepEqual(gotCount, count) || !reflect.DeepEqual(gotLatest, latest) {
				t.Errorf("%+v (read %d): agents %v %v, want %v %v", opts, round, gotCount, gotLatest, count, latest)
			}
		}
	}
}

// A retraction is no log entry, and neither is what it retracted, nor a
// version a newer one replaced: log, log --all and each agent's latest
// entry leave them out, as context show does (issue 25, item 9).
func TestLogLeavesOutRetractedEntries(t *testing.T) {
	at := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	var recs []*changelog.Record
	add := func(r *changelog.Record) *changelog.Record {
		r.Agent, r.Timestamp = "a", at.Add(time.Duration(len(recs))*time.Minute)
		r.ID = changelog.NewID(r.Agent, r.Kind, r.Body, r.Timestamp)
		recs = append(recs, r)
		return r
	}
	entry := func(text string) *changelog.Record {
		r, err := changelog.NewLog(changelog.LogInput{Text: text})
		if err != nil {
			t.Fatal(err)
		}
		return add(r)
	}
	kept := entry("kept")
	first := entry("first version")
	second := entry("second version")
	second.Supersedes = first.ID
	second.ID = changelog.NewID(second.Agent, second.Kind, second.Body+first.ID, second.Timestamp)
	wrong := entry("wrong")
	tomb, err := changelog.NewTombstone(wrong, "measured wrong")
	if err != nil {
		t.Fatal(err)
	}
	add(tomb)
	repo := testrecords.RepoWith(t, testrecords.Rendered(t, nil))
	files := map[string][]byte{}
	for p, data := range testrecords.Rendered(t, recs) {
		if filepath.Dir(p) != "." {
			files[p] = data
		}
	}
	if _, err := repo.CreateBranch(t.Context(), project.AgentBranch("a"), project.GlobalBranch, files, "entries"); err != nil {
		t.Fatal(err)
	}
	want := []string{second.ID, kept.ID}
	cacheDir := t.TempDir()
	for round := range 2 {
		rd := Open(repo, cacheDir)
		for _, opts := range []LogOptions{{Agent: "a"}, {All: true}, {All: true, Limit: 1}} {
			view, err := rd.Log(opts)
			if err != nil {
				t.Fatal(err)
			}
			w := want
			if opts.Limit > 0 {
				w = want[:opts.Limit]
			}
			if got := ids(view.Entries); !slices.Equal(got, w) {
				t.Errorf("round %d, %+v: entries %v, want %v", round, opts, got, w)
			}
			if opts.All && (len(view.Agents) != 1 || view.Agents[0].Entries != 2 || view.Agents[0].Title != "second version") {
				t.Errorf("round %d, %+v: agents %+v, want a with 2 entries, the latest the second version", round, opts, view.Agents)
			}
		}
		if got := latestTitles(t, rd); got["a"] != "second version" {
			t.Errorf("round %d: latest %v, want the second version", round, got)
		}
	}
}
