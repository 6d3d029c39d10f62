package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/embed"
	"github.com/planq-dev/planq/internal/testkit/testrecords"
	"github.com/planq-dev/planq/search"
)

// testModel is a table of random vectors over the words of the samples,
// seeded by name: two names, two models, with IDs of their own. It counts
// the texts it embeds.
type testModel struct {
	*embed.Table
	texts *atomic.Int64
}

func newTestModel(t *testing.T, name string) testModel {
	t.Helper()
	words := strings.Fields("added jwt validation go test hangs set p 1 use rs256 hs256 public keys review the refresh race detector again under vacuum runs nightly")
	rng := rand.New(rand.NewPCG(uint64(len(name)), uint64(name[0])))
	var vecs [][]float32
	var weights []float32
	for range words {
		v := make([]float32, 16)
		for j := range v {
			v[j] = float32(rng.NormFloat64())
		}
		vecs, weights = append(vecs, v), append(weights, 1)
	}
	tab, err := embed.NewTable(embed.Info{Name: name}, words, weights, vecs)
	if err != nil {
		t.Fatal(err)
	}
	return testModel{Table: tab, texts: &atomic.Int64{}}
}

func (m testModel) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	m.texts.Add(int64(len(texts)))
	return m.Table.Embed(ctx, texts)
}

// searchBy asks text of every kind searched on every branch, embedding by m.
func (rd testReader) searchBy(m embed.Model, text string) (Found, error) {
	tips, err := rd.Tips()
	if err != nil {
		return Found{}, err
	}
	kinds := changelog.KindsWhere(func(s *changelog.Spec) bool { return s.Searched })
	return rd.Store.Search(context.Background(), tips, kinds, nil, search.Query{Phrasings: []string{text}, Limit: 8}, func() embed.Model { return m })
}

func vectorFiles(t *testing.T, cacheDir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(cacheDir, "vectors", "*", "*", "*.vec"))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// The records are embedded once per model: a second search, by another
// process, embeds only its question; another model (another ID) embeds
// them all again, into vectors of its own.
func TestVectorsFollowTheModel(t *testing.T) {
	recs := testrecords.Samples(t)
	repo := testrecords.RepoWith(t, testrecords.Rendered(t, recs))
	cacheDir := t.TempDir()
	a, b := newTestModel(t, "alpha"), newTestModel(t, "beta")
	searched := len(recs) - 2 // every kind but checkpoints and proposals

	res, err := open(repo, cacheDir).searchBy(a, "go test hangs")
	if err != nil || !res.Vector || res.VectorOff != nil || len(res.Hits) == 0 {
		t.Fatalf("search by alpha: %+v, err %v", res, err)
	}
	if got := a.texts.Load(); got != int64(searched+1) {
		t.Errorf("alpha embedded %d texts, want the %d records searched and the question", got, searched+1)
	}
	first := vectorFiles(t, cacheDir)
	if len(first) != 2*searched { // a shard and its directory for each
		t.Fatalf("%d vector files, want %d: %v", len(first), 2*searched, first)
	}

	a.texts.Store(0)
	if _, err := open(repo, cacheDir).searchBy(a, "go test hangs"); err != nil {
		t.Fatal(err)
	}
	if got := a.texts.Load(); got != 1 {
		t.Errorf("a second search by alpha embedded %d texts, want its question alone", got)
	}

	if _, err := open(repo, cacheDir).searchBy(b, "go test hangs"); err != nil {
		t.Fatal(err)
	}
	if got := b.texts.Load(); got != int64(searched+1) {
		t.Errorf("beta embedded %d texts, want every record again and the question (%d)", got, searched+1)
	}
	if got := len(vectorFiles(t, cacheDir)); got != 4*searched {
		t.Errorf("%d vector files after two models, want %d", got, 4*searched)
	}
}

// A shard's vectors made from its last ones (its unchanged records'
// vectors kept) are the very file made from nothing, and the one new
// record is the only one embedded.
func TestIncrementalVectorsAreAFullBuild(t *testing.T) {
	recs := testrecords.Samples(t)
	repo := testrecords.RepoWith(t, testrecords.Rendered(t, recs))
	m := newTestModel(t, "alpha")
	incremental := t.TempDir()
	if _, err := open(repo, incremental).searchBy(m, "race detector"); err != nil {
		t.Fatal(err)
	}
	added := testrecords.BranchWithOneMore(t, repo, recs[1], "go test hangs again under the race detector")
	m.texts.Store(0)
	res, err := open(repo, incremental).searchBy(m, "race detector")
	if err != nil || len(res.Hits) == 0 || res.Hits[0].Record.ID != added.ID {
		t.Fatalf("search for the new record: %+v, err %v", res, err)
	}
	if got := m.texts.Load(); got != 2 {
		t.Errorf("the search after one new record embedded %d texts, want the record and the question", got)
	}

	full := t.TempDir()
	if _, err := open(repo, full).searchBy(m, "race detector"); err != nil {
		t.Fatal(err)
	}
	files := vectorFiles(t, full)
	if len(files) == 0 {
		t.Fatal("no vectors made from nothing")
	}
	for _, f := range files {
		want, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(full, f)
		got, err := os.ReadFile(filepath.Join(incremental, rel))
		if err != nil {
			t.Fatalf("no incremental vectors %s: %v", rel, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("vectors %s: %d bytes made incrementally, %d from nothing, and they differ", rel, len(got), len(want))
		}
	}
}

// Vectors cut short, overwritten or of another model's file are made
// again, and the search finds what it found over sound ones.
func TestDamagedVectorsAreMadeAgain(t *testing.T) {
	recs := testrecords.Samples(t)
	repo := testrecords.RepoWith(t, testrecords.Rendered(t, recs))
	m := newTestModel(t, "alpha")
	want, err := open(repo, t.TempDir()).searchBy(m, "public keys")
	if err != nil {
		t.Fatal(err)
	}
	damage := map[string]func([]byte) []byte{
		"cut":     func(d []byte) []byte { return d[:len(d)-3] },
		"scale":   func(d []byte) []byte { d[vectorsHeader+len(m.ID())+1] ^= 0x40; return d },
		"vector":  func(d []byte) []byte { d[len(d)-21] ^= 0x01; return d },
		"version": func(d []byte) []byte { d[len(vectorsMagic)] = 9; return d },
		"empty":   func([]byte) []byte { return nil },
	}
	for name, damaged := range damage {
		t.Run(name, func(t *testing.T) {
			cacheDir := t.TempDir()
			if _, err := open(repo, cacheDir).searchBy(m, "public keys"); err != nil {
				t.Fatal(err)
			}
			for _, f := range vectorFiles(t, cacheDir) {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(f, damaged(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := open(repo, cacheDir).searchBy(m, "public keys")
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Hits) != len(want.Hits) || got.Total != want.Total {
				t.Fatalf("over damaged vectors: %d hits of %d, want %d of %d", len(got.Hits), got.Total, len(want.Hits), want.Total)
			}
			for i := range got.Hits {
				if got.Hits[i].Record.ID != want.Hits[i].Record.ID || got.Hits[i].Score != want.Hits[i].Score {
					t.Fatalf("over damaged vectors hit %d is %s (%v), want %s (%v)", i, got.Hits[i].Record.ID, got.Hits[i].Score,
						want.Hits[i].Record.ID, want.Hits[i].Score)
				}
			}
		})
	}
}

// failing embeds nothing: an endpoint that is down.
type failing struct{ testModel }

func (failing) Embed(context.Context, []string) ([][]float32, error) {
	return nil, errors.New("connection refused")
}

// wrongDim answers vectors of another dimension than it says.
type wrongDim struct{ testModel }

func (m wrongDim) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	vs, err := m.testModel.Embed(ctx, texts)
	for i := range vs {
		vs[i] = vs[i][:3]
	}
	return vs, err
}

// A model that fails, on the question or on the records, leaves the search
// to words: it finds what a search without a model finds, and says why.
func TestFailingModelLeavesWords(t *testing.T) {
	recs := testrecords.Samples(t)
	repo := testrecords.RepoWith(t, testrecords.Rendered(t, recs))
	want, err := open(repo, t.TempDir()).searchBy(nil, "go test hangs")
	if err != nil || len(want.Hits) == 0 || want.Vector {
		t.Fatalf("search without a model: %+v, err %v", want, err)
	}
	for name, m := range map[string]embed.Model{"down": failing{newTestModel(t, "alpha")}, "dimension": wrongDim{newTestModel(t, "alpha")}} {
		t.Run(name, func(t *testing.T) {
			got, err := open(repo, t.TempDir()).searchBy(m, "go test hangs")
			if err != nil {
				t.Fatal(err)
			}
			var failed *ModelError
			if !errors.As(got.VectorOff, &failed) || got.Vector {
				t.Fatalf("vector channel: on %v, off %v; want off, for the model's failure", got.Vector, got.VectorOff)
			}
			if len(got.Hits) != len(want.Hits) || got.Hits[0].Record.ID != want.Hits[0].Record.ID || got.Hits[0].Score != want.Hits[0].Score {
				t.Fatalf("search by a failing model: %+v; want the words' answer %+v", got.Hits, want.Hits)
			}
		})
	}
}

// batchModel is a testModel that remembers the largest batch it was given.
type batchModel struct {
	testModel
	largest *atomic.Int64
}

func (m batchModel) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	for {
		old := m.largest.Load()
		if int64(len(texts)) <= old || m.largest.CompareAndSwap(old, int64(len(texts))) {
			break
		}
	}
	return m.testModel.Embed(ctx, texts)
}

// A shard embedded from nothing is embedded a batch at a time, and the
// records decoded for it are not kept: a search that embeds every record
// holds one batch of texts, never the shard's records, so that an MCP
// server's memory does not grow by the whole project at its first search.
func TestEmbeddingHoldsOneBatch(t *testing.T) {
	at := time.Date(2026, 11, 22, 6, 5, 33, 0, time.UTC)
	n := 2*embedBatch + 17
	var recs []*changelog.Record
	for i := range n {
		r, err := changelog.NewLearning(changelog.LearningInput{Text: fmt.Sprintf("go test hangs under the race detector, run %d", i), Type: changelog.TypeFailure, Domain: "ci", Resolution: "set -p 1"})
		recs = append(recs, testrecords.Stamped(t, r, err, "auth", at.Add(time.Duration(i)*time.Second)))
	}
	repo := testrecords.RepoWith(t, testrecords.Rendered(t, recs))
	m := batchModel{newTestModel(t, "alpha"), &atomic.Int64{}}
	cacheDir := t.TempDir()
	// Segments built by an earlier process, by words alone, as a hook's or
	// a CLI's search leaves them; then a process that embeds.
	if _, err := open(repo, cacheDir).searchBy(nil, "race detector"); err != nil {
		t.Fatal(err)
	}
	rd := open(repo, cacheDir)
	res, err := rd.searchBy(m, "race detector")
	if err != nil || !res.Vector || len(res.Hits) == 0 {
		t.Fatalf("search: %+v, err %v", res, err)
	}
	if got := m.texts.Load(); got != int64(n+1) {
		t.Errorf("embedded %d texts, want the %d records and the question", got, n+1)
	}
	if got := m.largest.Load(); got != embedBatch {
		t.Errorf("the largest batch held %d texts, want %d", got, embedBatch)
	}
	rd.mu.Lock()
	defer rd.mu.Unlock()
	decoded := 0
	for sh, seg := range rd.loaded {
		if sh.path != "learnings/ci" {
			continue
		}
		for _, r := range seg.recs {
			if r != nil {
				decoded++
			}
		}
	}
	// The search decodes its hits to show them; the embedding pass keeps
	// none of the rest.
	if decoded > len(res.Hits) {
		t.Errorf("%d records of learnings/ci stay decoded after embedding, want at most the %d hits", decoded, len(res.Hits))
	}
}
