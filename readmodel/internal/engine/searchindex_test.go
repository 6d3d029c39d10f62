package engine

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testrecords"
)

func searchAll(t *testing.T, rd testReader) []Found {
	t.Helper()
	return testrecords.AskAll(t, func(q string) (Found, int, error) {
		res, err := rd.Search(Query{Text: q})
		return res, len(res.Hits), err
	})
}

// A search index damaged in any of its parts gives the answers of an
// undamaged one: what fails its checksum is built again from git.
func TestDamagedSearchIndexIsRebuilt(t *testing.T) {
	recs := testrecords.Samples(t)
	repo := testrecords.RepoWith(t, testrecords.Rendered(t, recs))
	want := searchAll(t, open(repo, t.TempDir()))
	damage := map[string]func(data []byte) []byte{
		"head":   func(data []byte) []byte { data[indexAt(data)+9] ^= 0x10; return data },
		"length": func(data []byte) []byte { data[indexAt(data)] ^= 0x01; return data },
		"middle": func(data []byte) []byte { at := indexAt(data); data[at+(len(data)-at)/2] ^= 0x01; return data },
		"end":    func(data []byte) []byte { data[len(data)-1] ^= 0x80; return data },
		"cut":    func(data []byte) []byte { return data[:len(data)-2] },
	}
	for name, damaged := range damage {
		t.Run(name, func(t *testing.T) {
			cacheDir := t.TempDir()
			searchAll(t, open(repo, cacheDir))
			segs, _ := filepath.Glob(filepath.Join(cacheDir, "segments", "*", "*.seg"))
			if len(segs) != 2*(len(recs)-2) { // every kind searched but checkpoints and proposals: a shard and a directory each
				t.Fatalf("%d segment files, want %d", len(segs), 2*(len(recs)-2))
			}
			for _, f := range segs {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(f, damaged(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if got := searchAll(t, open(repo, cacheDir)); !reflect.DeepEqual(got, want) {
				t.Fatalf("over damaged indexes:\ngot  %+v\nwant %+v", got, want)
			}
		})
	}
}

// A directory's index merged from a damaged shard index would carry the
// damage on: the shard's is built again from git first.
func TestDirectoryIndexNeverInheritsDamage(t *testing.T) {
	recs := testrecords.Samples(t)
	repo := testrecords.RepoWith(t, testrecords.Rendered(t, recs))
	want := searchAll(t, open(repo, t.TempDir()))
	cacheDir := t.TempDir()
	searchAll(t, open(repo, cacheDir))
	segs, _ := filepath.Glob(filepath.Join(cacheDir, "segments", "*", "*.seg"))
	shards := 0
	for _, f := range segs {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if uint32At(data, 3) == 0 { // no bodies: a directory's, to be merged again
			if err := os.Remove(f); err != nil {
				t.Fatal(err)
			}
			continue
		}
		shards++
		data[len(data)-1] ^= 0x80 // the last postings
		if err := os.WriteFile(f, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if shards != len(recs)-2 {
		t.Fatalf("%d shard segments damaged, want %d", shards, len(recs)-2)
	}
	reads := 0
	rd := counting(repo, cacheDir, &reads)
	if _, err := rd.All(); err != nil { // the directories' segments merged again
		t.Fatal(err)
	}
	if got := searchAll(t, rd); !reflect.DeepEqual(got, want) {
		t.Fatalf("over damaged shard indexes:\ngot  %+v\nwant %+v", got, want)
	}
	if reads < shards {
		t.Errorf("%d blobs read, want each damaged shard's records read again (%d at least)", reads, shards)
	}
}

// A shard's segment built from its last one (its unchanged records' terms
// taken from that one's index) is the very file a build from nothing makes.
func TestIncrementalIndexIsAFullBuild(t *testing.T) {
	recs := testrecords.Samples(t)
	other := *recs[1] // a second shard of learnings, which the new record leaves as it is
	other.Domain, other.Body = "db", "vacuum runs nightly"
	other.ID = changelog.NewID(other.Agent, other.Kind, other.Body, other.Timestamp)
	recs = append(recs, &other)
	repo := testrecords.RepoWith(t, testrecords.Rendered(t, recs))
	incremental := t.TempDir()
	searchAll(t, open(repo, incremental))
	if _, err := open(repo, incremental).All(); err != nil { // every directory's segment built
		t.Fatal(err)
	}
	added := testrecords.BranchWithOneMore(t, repo, recs[1], "go test hangs again under the race detector")
	reads := 0
	res, err := counting(repo, incremental, &reads).Search(Query{Text: "race detector"})
	if err != nil || len(res.Hits) != 1 || res.Hits[0].Record.ID != added.ID {
		t.Fatalf("search for the new record: %+v, err %v", res, err)
	}
	if reads != 1 { // the new record parsed; its snippet is its own rendering
		t.Errorf("search after one new record read %d blobs, want 1", reads)
	}
	// The search read the changed directory's shards; its own segment is
	// the views' to build.
	var changed []string
	before, _ := filepath.Glob(filepath.Join(incremental, "segments", "*", "*.seg"))
	if _, err := open(repo, incremental).All(); err != nil {
		t.Fatal(err)
	}
	after, _ := filepath.Glob(filepath.Join(incremental, "segments", "*", "*.seg"))
	for _, f := range after {
		if !slices.Contains(before, f) {
			changed = append(changed, f)
		}
	}
	if len(changed) != 1 {
		t.Errorf("a read after the search built %d segments (%v); want the changed directory's alone, which the search should have left to it", len(changed), changed)
	}
	full := t.TempDir()
	if _, err := open(repo, full).Search(Query{Text: "race detector"}); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(full, "segments", "*", "*.seg"))
	for _, f := range files {
		want, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(full, f)
		got, err := os.ReadFile(filepath.Join(incremental, rel))
		if err != nil {
			t.Fatalf("no incremental segment %s: %v", rel, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("segment %s: %d bytes built incrementally, %d from nothing, and they differ", rel, len(got), len(want))
		}
	}
}

// A first search builds the segment of every branch's directory, though
// another branch's directory of that kind was built a moment before: the
// searches after it read one file per directory, not its shards.
func TestFirstSearchBuildsEveryBranchsDirectories(t *testing.T) {
	recs := testrecords.Samples(t)
	repo := testrecords.RepoWith(t, testrecords.Rendered(t, recs))
	testrecords.BranchWithOneMore(t, repo, recs[1], "go test hangs again under the race detector")
	cacheDir := t.TempDir()
	if _, err := open(repo, cacheDir).Search(Query{Text: "race detector"}); err != nil {
		t.Fatal(err)
	}
	segs, _ := filepath.Glob(filepath.Join(cacheDir, "segments", "*", "*.seg"))
	dirs := 0
	for _, f := range segs {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if uint32At(data, 3) == 0 { // no bodies: a directory's
			dirs++
		}
	}
	// global's log, learnings, decisions, handoffs and notes, and
	// agent-auth's learnings, which hold one more.
	if dirs != 6 {
		t.Errorf("%d directory segments after the first search, want 6", dirs)
	}
}
