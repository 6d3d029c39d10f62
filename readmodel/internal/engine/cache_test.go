package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testrecords"
	"github.com/planq-dev/planq/project"
)

func TestStoreUsesCacheAcrossProcesses(t *testing.T) {
	recs := testrecords.Samples(t)
	repo := testrecords.RepoWith(t, testrecords.Rendered(t, recs))
	cacheDir := filepath.Join(t.TempDir(), "cache")

	reads := 0
	first := counting(repo, cacheDir, &reads)
	set, err := first.Branch(project.GlobalBranch)
	if err != nil || len(set.Records) != len(recs) || len(set.Problems) != 0 {
		t.Fatalf("first load: %d records, %v problems, err %v", len(set.Records), set.Problems, err)
	}
	if reads != len(recs) {
		t.Fatalf("first load read %d blobs, want %d (READMEs and notes are not records)", reads, len(recs))
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}

	reads = 0
	second := counting(repo, cacheDir, &reads)
	set2, err := second.Branch(project.GlobalBranch)
	if err != nil {
		t.Fatal(err)
	}
	if reads != 0 {
		t.Errorf("second load read %d blobs; the cache should have answered", reads)
	}
	for i := range set.Records {
		a, b := set.Records[i], set2.Records[i]
		if a.ID != b.ID || a.Path != b.Path || a.Body != b.Body || a.Kind != b.Kind {
			t.Errorf("cached record %d differs: %+v vs %+v", i, a, b)
		}
	}
}

func TestMalformedRecordsComeBackAsProblems(t *testing.T) {
	recs := testrecords.Samples(t)
	files := testrecords.Rendered(t, recs)
	// A good record at the wrong path, and a file that is no record at all.
	good, _ := changelog.Render(recs[0])
	files["log/1999-01/"+recs[0].ID+".md"] = good
	files["log/2026-11/pq-0000000001.md"] = []byte("no frontmatter here\n")
	repo := testrecords.RepoWith(t, files)
	cacheDir := t.TempDir()

	// Twice: a cached record met at the wrong path is refused all the same.
	for round := range 2 {
		rd := open(repo, cacheDir)
		set, err := rd.All()
		if err != nil {
			t.Fatalf("round %d: a malformed record failed the load: %v", round, err)
		}
		if len(set.Records) != len(recs) {
			t.Errorf("round %d: %d records, want the %d good ones", round, len(set.Records), len(recs))
		}
		if len(set.Problems) != 2 {
			t.Fatalf("round %d: want 2 problems, got %v", round, set.ProblemLines())
		}
		if err := rd.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestDamagedCacheIsRebuiltNotTrusted(t *testing.T) {
	recs := testrecords.Samples(t)
	repo := testrecords.RepoWith(t, testrecords.Rendered(t, recs))
	// Every segment damaged one way at a time: cut short, garbage, a byte
	// more, a flipped bit in the rows, in the middle, in a record's bytes,
	// and a segment of another shard under its name.
	damage := map[string]func(data, other []byte) []byte{
		"cut":      func(data, _ []byte) []byte { return data[:len(data)-1] },
		"garbage":  func(_, _ []byte) []byte { return []byte("not a segment") },
		"longer":   func(data, _ []byte) []byte { return append(data, 0) },
		"rows":     func(data, _ []byte) []byte { data[headerSize+1] ^= 0x01; return data },
		"middle":   func(data, _ []byte) []byte { data[indexAt(data)/2] ^= 0x01; return data }, // of what a load reads: the index has tests of its own
		"record":   func(data, _ []byte) []byte { data[indexAt(data)-3] ^= 0x01; return data },
		"misnamed": func(_, other []byte) []byte { return other },
	}
	for name, damaged := range damage {
		t.Run(name, func(t *testing.T) {
			cacheDir := t.TempDir()
			if _, err := open(repo, cacheDir).Branch(project.GlobalBranch); err != nil {
				t.Fatal(err)
			}
			segs, _ := filepath.Glob(filepath.Join(cacheDir, "segments", "*", "*.seg"))
			if len(segs) != 2*len(recs) { // one shard each, and its kind's directory
				t.Fatalf("%d segment files, want %d", len(segs), 2*len(recs))
			}
			other, err := os.ReadFile(segs[0])
			if err != nil {
				t.Fatal(err)
			}
			for i, f := range segs {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				if name == "misnamed" {
					other, _ = os.ReadFile(segs[(i+1)%len(segs)])
				}
				if err := os.WriteFile(f, damaged(data, other), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			reads := 0
			set, err := counting(repo, cacheDir, &reads).Branch(project.GlobalBranch)
			if err != nil || len(set.Records) != len(recs) {
				t.Fatalf("load over damaged segments: %d records, err %v", len(set.Records), err)
			}
			for i, r := range set.Records {
				want := *recs[i]
				want.Path = changelog.RecordPath(&want)
				if !reflect.DeepEqual(r, &want) {
					t.Errorf("record %d misread:\ngot  %+v\nwant %+v", i, r, &want)
				}
			}
			if reads != len(recs) {
				t.Errorf("%d blobs read again, want %d: a damaged segment was trusted", reads, len(recs))
			}
			reads = 0
			if _, err := counting(repo, cacheDir, &reads).Branch(project.GlobalBranch); err != nil || reads != 0 {
				t.Errorf("after the rebuild: %d reads, err %v; want the rebuilt segments to answer", reads, err)
			}
		})
	}
}

// TestCacheCodecKeepsEveryField fills every field of a record, through
// reflection so that a field added later is filled too, and holds the
// segments' encoding of records to giving it back unchanged.
func TestRecordCodecKeepsEveryField(t *testing.T) {
	r := &changelog.Record{}
	fill(t, reflect.ValueOf(r).Elem(), "x")
	r.Timestamp = time.Date(2026, 3, 1, 12, 30, 0, 123, time.FixedZone("", 2*3600))
	r.Kind = changelog.KindLearning
	r.Path = changelog.RecordPath(r)
	r.SupersedesRing = false             // a reader's mark, never kept: a ring is of the records read together
	r.Extra["list"] = []string{"a", "b"} // an extra field is a string or a list of strings
	data := appendRecord(nil, r)
	got, err := decodeRecord(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, r) {
		t.Errorf("the codec changed the record:\ngot  %+v\nwant %+v", got, r)
	}
	// Cut anywhere, or with a byte more, the bytes are damaged, never misread.
	for n := range len(data) {
		if _, err := decodeRecord(data[:n]); err == nil {
			t.Fatalf("a record cut at %d of %d bytes was read", n, len(data))
		}
	}
	if _, err := decodeRecord(append(data, 0)); err == nil {
		t.Fatal("a record with a byte too many was read")
	}
}

// fill sets every settable field under v to a value that is not zero.
func fill(t *testing.T, v reflect.Value, s string) {
	t.Helper()
	switch v.Kind() {
	case reflect.String:
		v.SetString(s + "-" + v.Type().Name())
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int:
		v.SetInt(7)
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		v.SetMapIndex(reflect.ValueOf(s+"-key"), reflect.ValueOf(s+"-value"))
	case reflect.Struct:
		if v.Type() == reflect.TypeOf(time.Time{}) {
			return
		}
		for i := range v.NumField() {
			fill(t, v.Field(i), s+v.Type().Field(i).Name)
		}
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(t, v.Index(i), s+fmt.Sprint(i))
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(t, v.Elem(), s)
	default:
		t.Fatalf("fill does not know %s: teach it, and the cache codec, the new field", v.Type())
	}
}

// TestOneNewRecordCostsOneParse: a shard's new tree is built from the
// shard's newest segment, so a branch that adds one record to global's
// shards costs reading that record alone.
func TestOneNewRecordCostsOneParse(t *testing.T) {
	recs := testrecords.Samples(t)
	repo := testrecords.RepoWith(t, testrecords.Rendered(t, recs))
	cacheDir := t.TempDir()
	reads := 0
	if _, err := counting(repo, cacheDir, &reads).Branch(project.GlobalBranch); err != nil || reads != len(recs) {
		t.Fatalf("first load: %d reads, err %v", reads, err)
	}
	testrecords.BranchWithOneMore(t, repo, recs[1], "go test hangs again")
	reads = 0
	set, err := counting(repo, cacheDir, &reads).Branch("agent-auth")
	if err != nil || len(set.Records) != len(recs)+1 {
		t.Fatalf("load of the branch: %d records, err %v", len(set.Records), err)
	}
	if reads != 1 {
		t.Errorf("the branch's load read %d blobs, want 1: the new record alone", reads)
	}
}
