package team

import (
	"context"
	"fmt"
	"math/rand"
	"path/filepath"
	"testing"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testgit"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

func testRepo(t *testing.T) *staterepo.Repo {
	t.Helper()
	testgit.Isolate(t)
	path := filepath.Join(t.TempDir(), "state.git")
	if _, err := staterepo.Init(context.Background(), path, changelog.Skeleton()); err != nil {
		t.Fatal(err)
	}
	r, err := staterepo.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// history builds commits on one side of a merge with random record
// operations, and remembers every version of every record it wrote.
type history struct {
	t        *testing.T
	repo     *staterepo.Repo
	rng      *rand.Rand
	side     string
	files    map[string]*changelog.Record // path -> record now at that path
	deleted  map[string]bool              // paths removed by hand (not tombstoned)
	versions map[string][]*changelog.Record
	clock    *time.Time
}

func (h *history) write(r *changelog.Record) {
	data, err := changelog.Render(r)
	if err != nil {
		h.t.Fatal(err)
	}
	if _, err := h.repo.WriteBlob(data); err != nil {
		h.t.Fatal(err)
	}
	p := changelog.RecordPath(r)
	h.files[p] = r
	delete(h.deleted, p)
	h.versions[p] = append(h.versions[p], r)
}

func (h *history) tick() time.Time {
	*h.clock = h.clock.Add(time.Duration(1+h.rng.Intn(1000)) * time.Second)
	return *h.clock
}

func (h *history) newRecord(body string) *changelog.Record {
	at := h.tick()
	r := &changelog.Record{Kind: changelog.KindLearning, Type: "pattern", Domain: "d" + fmt.Sprint(h.rng.Intn(3)),
		Classification: "tactical", Agent: h.side, Timestamp: at, Body: body}
	r.ID = changelog.NewID(h.side, r.Kind, body, at)
	return r
}

// step applies one random operation: add, supersede, tombstone, an edit in
// place (what only a hand edit does, and what makes both sides collide), or
// a file deleted by hand (which a merge must not take for a deletion).
func (h *history) step(i int) {
	var existing []string
	for p := range h.files {
		existing = append(existing, p)
	}
	sortStrings(existing)
	op := h.rng.Intn(5)
	if len(existing) == 0 {
		op = 0
	}
	switch op {
	case 0:
		h.write(h.newRecord(fmt.Sprintf("%s add %d", h.side, i)))
	case 1, 2:
		old := h.files[existing[h.rng.Intn(len(existing))]]
		r := h.newRecord(fmt.Sprintf("%s supersedes %s at %d", h.side, old.ID, i))
		r.Supersedes, r.Tombstone = old.ID, op == 2
		h.write(r)
	case 4:
		p := existing[h.rng.Intn(len(existing))]
		delete(h.files, p)
		h.deleted[p] = true
	case 3:
		old := *h.files[existing[h.rng.Intn(len(existing))]]
		old.Body = fmt.Sprintf("%s edited in place at %d", h.side, i)
		old.Timestamp = h.tick()
		h.write(&old)
	}
}

func (h *history) commit(parent staterepo.Hash) staterepo.Hash {
	tree, err := h.repo.TreeOf(parent)
	if err != nil {
		h.t.Fatal(err)
	}
	edits := map[string]staterepo.Hash{}
	for p := range h.deleted {
		edits[p] = staterepo.ZeroHash
	}
	for p, r := range h.files {
		data, _ := changelog.Render(r)
		edits[p] = staterepo.Hash(blobHash(data))
	}
	tree, err = h.repo.EditTree(tree, edits)
	if err != nil {
		h.t.Fatal(err)
	}
	c, err := h.repo.WriteCommit(tree, []staterepo.Hash{parent}, h.side+"\n")
	if err != nil {
		h.t.Fatal(err)
	}
	return c
}

// TestMergeProperties merges random histories both ways and checks that the
// merge is symmetric, loses no record, keeps each record's latest version,
// and writes only parseable records.
func TestMergeProperties(t *testing.T) {
	repo := testRepo(t)
	root, err := repo.Tip(project.GlobalBranch)
	if err != nil {
		t.Fatal(err)
	}
	iterations := 150
	if testing.Short() {
		iterations = 30
	}
	for seed := int64(1); seed <= int64(iterations); seed++ {
		rng := rand.New(rand.NewSource(seed))
		clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		base := &history{t: t, repo: repo, rng: rng, side: "base", files: map[string]*changelog.Record{}, deleted: map[string]bool{}, versions: map[string][]*changelog.Record{}, clock: &clock}
		for i := 0; i < rng.Intn(6); i++ {
			base.step(i)
		}
		baseCommit := base.commit(root)
		sides := make([]*history, 2)
		tips := make([]staterepo.Hash, 2)
		for s, name := range []string{"ours", "theirs"} {
			h := &history{t: t, repo: repo, rng: rng, side: name, files: map[string]*changelog.Record{}, deleted: map[string]bool{}, versions: map[string][]*changelog.Record{}, clock: &clock}
			for p, r := range base.files {
				h.files[p] = r
			}
			tip := baseCommit
			for c := 0; c < 1+rng.Intn(3); c++ {
				for i := 0; i < 1+rng.Intn(5); i++ {
					h.step(c*10 + i)
				}
				tip = h.commit(tip)
			}
			sides[s], tips[s] = h, tip
		}

		ab, _, err := mergeCommits(repo, tips[0], tips[1], "test", nil)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		ba, _, err := mergeCommits(repo, tips[1], tips[0], "test", nil)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		treeAB, _ := repo.TreeOf(ab)
		treeBA, _ := repo.TreeOf(ba)
		if treeAB != treeBA {
			t.Fatalf("seed %d: merging ours into theirs and theirs into ours differ: %s vs %s", seed, treeAB, treeBA)
		}
		merged := filesOf(t, repo, ab)
		for _, h := range append(sides, base) {
			for p := range h.files {
				if _, ok := merged[p]; !ok {
					t.Fatalf("seed %d: record %s of %s lost in the merge", seed, p, h.side)
				}
			}
		}
		for _, h := range sides {
			for p := range h.deleted {
				if _, inBase := base.files[p]; !inBase {
					continue // added and removed on one side only: the merge never saw it
				}
				if _, ok := merged[p]; !ok {
					t.Fatalf("seed %d: record %s deleted by hand on %s was taken for a deletion", seed, p, h.side)
				}
			}
		}
		for p, data := range merged {
			if !changelog.IsRecordPath(p) {
				continue
			}
			got, err := changelog.Parse(p, data)
			if err != nil {
				t.Fatalf("seed %d: merge wrote an unparseable record: %v", seed, err)
			}
			latest := latestVersion(p, sides[0], sides[1])
			if latest != nil && !got.Timestamp.Equal(latest.Timestamp) {
				t.Fatalf("seed %d: %s keeps the version of %s, not the latest of %s", seed, p, got.Timestamp, latest.Timestamp)
			}
		}
	}
}

// latestVersion is the newest version of path at the tips of both sides.
func latestVersion(p string, sides ...*history) *changelog.Record {
	var latest *changelog.Record
	for _, h := range sides {
		if r, ok := h.files[p]; ok && (latest == nil || r.Timestamp.After(latest.Timestamp)) {
			latest = r
		}
	}
	return latest
}

func filesOf(t *testing.T, repo *staterepo.Repo, commit staterepo.Hash) map[string][]byte {
	t.Helper()
	files, err := repo.Walk(commit, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range files {
		data, err := repo.ReadBlob(f.Blob)
		if err != nil {
			t.Fatal(err)
		}
		out[f.Path] = data
	}
	return out
}
