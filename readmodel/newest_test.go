package readmodel

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/planq-dev/planq/changelog"
)

// logRecords are log entries of several agents over months, two of them at
// the same instant (their IDs break the tie).
func logRecords(t *testing.T) []*changelog.Record {
	t.Helper()
	at := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	var recs []*changelog.Record
	var newest *changelog.Record
	for i := range 60 {
		r, err := changelog.NewLog(changelog.LogInput{Text: fmt.Sprintf("step %d", i)})
		if err != nil {
			t.Fatal(err)
		}
		r.Agent, r.Timestamp = fmt.Sprintf("a%d", i*7%4), at.Add(time.Duration(i*i%97)*24*time.Hour)
		if i == 59 { // at the same instant as the newest of all, by the same agent
			r.Agent, r.Timestamp = newest.Agent, newest.Timestamp
		}
		r.ID = changelog.NewID(r.Agent, r.Kind, r.Body, r.Timestamp)
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
	repo := repoWith(t, rendered(t, recs))
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
	added := branchWithOneMore(t, repo, newest, "the newest step") // an hour after the newest
	want = latestOf(append(recs, &added))
	if want[added.Agent] != "the newest step" {
		t.Fatalf("the test's entry is not its agent's newest: %v", want)
	}
	if got := latestTitles(t, Open(repo, cacheDir)); !reflect.DeepEqual(got, want) {
		t.Fatalf("after a newer entry on a branch: %v, want %v", got, want)
	}
}
