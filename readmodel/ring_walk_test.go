package readmodel

import (
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/ringgraph"
	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/internal/testkit/testrecords"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel/internal/engine"
	"github.com/planq-dev/planq/staterepo"
)

// checkReaders walks recs through every reader of the read model that
// follows supersedes without a repository (the current versions, the
// successors status counts by, validate's rings, a version's ring, and
// promote's ring check against global), within the deadline, and holds
// each to what the graph is.
func checkReaders(t *testing.T, h *Holdings, recs []*changelog.Record) {
	t.Helper()
	onRing := ringgraph.Rings(recs)
	var (
		current []*changelog.Record
		succ    map[string]*changelog.Record
		rings   [][]string
		landing []Ring
		err     error
		of      = map[string][]string{}
	)
	ringgraph.Within(t, ringgraph.Deadline, "the read model", func() {
		current = Set{Records: recs}.Current()
		succ = engine.Successors(recs)
		byID := map[string]*changelog.Record{}
		for _, r := range recs {
			byID[r.ID] = r
		}
		rings = supersedeRings(byID)
		for i, r := range recs {
			if len(recs) <= 500 || i%1000 == 0 || i == len(recs)-1 { // VersionRing is one command's walk: a few of ten thousand
				of[r.ID] = VersionRing(recs, r.ID)
			}
		}
		landing, err = h.Rings(recs)
	})
	if err != nil {
		t.Fatal(err)
	}
	ringOf := map[string][]string{}
	newest := map[string]string{} // each ring's newest, by its least ID
	inRing := map[string]map[string]bool{}
	for _, ring := range rings {
		newest[ring[0]] = ringgraph.Newest(recs, ring)
		set := map[string]bool{}
		for _, id := range ring {
			set[id] = true
		}
		inRing[ring[0]] = set
		if ring[0] != slices.Min(ring) {
			t.Errorf("ring %v does not start at its least ID", ring)
		}
		for _, id := range ring {
			ringOf[id] = ring
		}
	}
	if len(ringOf) != len(onRing) {
		t.Errorf("validate's rings hold %d versions, the graph %d", len(ringOf), len(onRing))
	}
	if len(landing) != len(rings) {
		t.Errorf("promote found %d rings, validate %d", len(landing), len(rings))
	}
	for _, r := range landing {
		if want := RingProblem(ringOf[r.IDs[0]]); r.Problem() != want {
			t.Errorf("promote says %q, validate %q", r.Problem(), want)
		}
	}
	// Shown: of a ring, its newest, unless a version from outside the ring
	// (a retraction, a later version) replaces it; else what is live and
	// replaced by nothing.
	replacedFrom := map[string]map[string]bool{} // id -> the IDs superseding it
	for _, r := range recs {
		if replacedFrom[r.Supersedes] == nil {
			replacedFrom[r.Supersedes] = map[string]bool{}
		}
		replacedFrom[r.Supersedes][r.ID] = true
	}
	want := map[string]bool{}
	for _, r := range recs {
		ring := ringOf[r.ID]
		if !onRing[r.ID] {
			if !r.Tombstone && len(replacedFrom[r.ID]) == 0 {
				want[r.ID] = true
			}
			continue
		}
		if v, asked := of[r.ID]; asked && !slices.Equal(v, ring) {
			t.Errorf("%s: VersionRing %v, validate's ring %v", r.ID, v, ring)
		}
		outside := false
		for by := range replacedFrom[r.ID] {
			outside = outside || !inRing[ring[0]][by]
		}
		if newest[ring[0]] == r.ID && !outside && !r.Tombstone {
			want[r.ID] = true
		}
	}
	for _, r := range recs {
		if !onRing[r.ID] && of[r.ID] != nil {
			t.Errorf("%s is on no ring, VersionRing says %v", r.ID, of[r.ID])
		}
	}
	var got []string
	for _, r := range current {
		got = append(got, r.ID)
		if r.SupersedesRing != onRing[r.ID] {
			t.Errorf("%s shown, marked as of a ring: %v", r.ID, r.SupersedesRing)
		}
	}
	sort.Strings(got)
	wanted := slices.Sorted(func(yield func(string) bool) {
		for id := range want {
			if !yield(id) {
				return
			}
		}
	})
	if !slices.Equal(got, wanted) {
		t.Errorf("current versions\n got %v\nwant %v", got, wanted)
	}
	// Of a ring, the newest has no successor in it: it is current.
	for _, ring := range rings {
		if by := succ[newest[ring[0]]]; by != nil && inRing[ring[0]][by.ID] {
			t.Errorf("ring %v: its newest is replaced by %s", ring, by.ID)
		}
	}
}

// emptyGlobal is what promote checks a landing against: a global that
// holds no record.
func emptyGlobal(t testing.TB) *Holdings {
	t.Helper()
	testgit.Isolate(t)
	path := filepath.Join(t.TempDir(), "state.git")
	if _, err := staterepo.Init(t.Context(), path, changelog.Skeleton()); err != nil {
		t.Fatal(err)
	}
	repo, err := staterepo.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	rd := Open(repo, t.TempDir())
	tip, err := repo.Tip(project.GlobalBranch)
	if err != nil {
		t.Fatal(err)
	}
	h, err := rd.Holdings(tip)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// Issue 36: every walk of supersedes ends, whatever the graph: rings of
// 2 and more, records that supersede themselves, long chains, diamonds.
func TestRingReadersAreBounded(t *testing.T) {
	h := emptyGlobal(t)
	for seed := range uint64(200) {
		checkReaders(t, h, ringgraph.Random(seed, 40))
		if t.Failed() {
			t.Fatalf("seed %d", seed)
		}
	}
	var b ringgraph.Builder
	at := b.Chain(10_000)
	checkReaders(t, h, slices.Clone(b.Records))
	b.Link(at[0], at[len(at)-1])
	checkReaders(t, h, b.Records)
}

// FuzzRingReaders walks the read model through graphs of supersedes drawn
// from the fuzzer's bytes; CI runs it with -fuzz.
func FuzzRingReaders(f *testing.F) {
	f.Add([]byte{0x05, 1, 0x01, 2})
	f.Add([]byte{0x01, 0})
	f.Add([]byte{0x09, 0, 0x01, 1, 0x85, 3, 0})
	h := emptyGlobal(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		checkReaders(t, h, ringgraph.FromBytes(data))
	})
}

// Validate and History read the graph from a repository: validate names
// each ring once, in its words, and a version's history ends.
func TestRingValidateAndHistoryOfAStoredGraph(t *testing.T) {
	for seed := range uint64(4) {
		recs := ringgraph.Random(seed, 30)
		repo := testrecords.RepoWith(t, testrecords.Rendered(t, recs))
		rd := Open(repo, t.TempDir())
		var findings []Finding
		var err error
		ringgraph.Within(t, ringgraph.Deadline, "validate and history", func() {
			if findings, err = rd.Validate(); err != nil {
				return
			}
			for _, r := range recs {
				if _, err = rd.History(r.ID, true); err != nil {
					return
				}
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		onRing := ringgraph.Rings(recs)
		named := map[string]bool{}
		for _, f := range findings {
			if f.Check != CheckCycle {
				continue
			}
			words := strings.TrimPrefix(strings.TrimPrefix(f.Problem, "versions supersede each other in a ring: "), "the record supersedes itself: ")
			for _, id := range strings.Split(words, " -> ") {
				named[id] = true
			}
		}
		if len(named) != len(onRing) {
			t.Errorf("seed %d: validate names %d versions on rings, the graph has %d: %+v", seed, len(named), len(onRing), findings)
		}
	}
}
