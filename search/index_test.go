package search

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/planq-dev/planq/changelog"
)

var vocabulary = strings.Fields(`advisory lock pgbouncer migrate schema token refresh cache
	session race overlay build dashboard deploy retry backoff timeout queue worker index
	shard segment commit branch merge rebase promote handoff checkpoint lint vet fuzz
	internal/session/store.go --race advisory_lock PgBouncer TTL 503 gRPC postgres redis`)

func randomDocs(rng *rand.Rand, n int) []Doc {
	domains := []string{"db", "auth", "ci", "infra"}
	types := []changelog.Type{changelog.TypeConvention, changelog.TypeFailure, changelog.TypePattern}
	classes := []changelog.Classification{changelog.Tactical, changelog.Observational, changelog.Foundational, ""}
	out := make([]Doc, n)
	for i := range out {
		var text [numFields]string
		for f := range numFields {
			var ws []string
			for range rng.IntN(12) {
				ws = append(ws, vocabulary[rng.IntN(len(vocabulary))])
			}
			text[f] = strings.Join(ws, " ")
		}
		out[i] = Doc{Domain: domains[rng.IntN(len(domains))], Type: types[rng.IntN(len(types))],
			Classification: classes[rng.IntN(len(classes))], text: text}
	}
	return out
}

func indexAll(docs []Doc) []Indexed {
	out := make([]Indexed, len(docs))
	for i, d := range docs {
		out[i] = d.Index()
	}
	return out
}

// Merging the indexes of parts makes the very bytes of indexing all their
// documents at once: a directory's index is its shards' merged, and must
// answer as if it had been built from the records themselves.
func TestMergeIsEncodeOfAll(t *testing.T) {
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 1))
		var parts [][]byte
		var all []Indexed
		for range 1 + rng.IntN(5) {
			docs := indexAll(randomDocs(rng, rng.IntN(150))) // some parts empty, some past a dictionary block
			parts = append(parts, Encode(docs))
			all = append(all, docs...)
		}
		merged, err := Merge(parts)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if want := Encode(all); !bytes.Equal(merged, want) {
			t.Fatalf("seed %d: merge of %d parts (%d bytes) is not the encoding of their %d documents (%d bytes)",
				seed, len(parts), len(merged), len(all), len(want))
		}
	}
}

// The documents read back from an index make the same index again: a
// shard's next segment takes its unchanged records' terms from the last one.
func TestDocsMakeTheSameIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	data := Encode(indexAll(randomDocs(rng, 300)))
	docs, err := Docs(data)
	if err != nil {
		t.Fatal(err)
	}
	if again := Encode(docs); !bytes.Equal(again, data) {
		t.Fatalf("re-encoding the documents read back gives %d bytes, not the %d first written", len(again), len(data))
	}
}

// Every byte of an index is under a checksum: whatever one byte is changed
// to, or a byte added or cut, reading the whole index fails rather than
// answers wrong.
func TestEveryDamagedByteIsFound(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	data := Encode(indexAll(randomDocs(rng, 90)))
	for i := range data {
		damaged := slices.Clone(data)
		damaged[i] ^= 1 << (i % 8)
		if _, err := Docs(damaged); !errors.Is(err, ErrDamaged) {
			t.Fatalf("byte %d of %d flipped: read gives %v, want ErrDamaged", i, len(data), err)
		}
	}
	if _, err := Docs(append(slices.Clone(data), 0)); !errors.Is(err, ErrDamaged) {
		t.Fatalf("index with a byte more: read gives %v, want ErrDamaged", err)
	}
	for _, n := range []int{0, 7, fixedHead, len(data) / 2, len(data) - 1} {
		if _, err := Docs(data[:n]); !errors.Is(err, ErrDamaged) {
			t.Fatalf("index cut to %d of %d bytes: read gives %v, want ErrDamaged", n, len(data), err)
		}
	}
}

func FuzzIndex(f *testing.F) {
	rng := rand.New(rand.NewPCG(5, 5))
	f.Add(Encode(indexAll(randomDocs(rng, 20))))
	f.Add(Encode(nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, err := Docs(data)
		if err != nil {
			if !errors.Is(err, ErrDamaged) {
				t.Fatalf("error %v is not ErrDamaged", err)
			}
			return
		}
		// What reads whole searches without failing, and encodes to itself.
		if again := Encode(docs); !bytes.Equal(again, data) {
			t.Fatalf("an index read whole (%d documents) encodes to other bytes", len(docs))
		}
		ix, err := OpenIndex(data)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Search([]Part{wholePart(ix)}, Query{Phrasings: []string{"advisory lock pgb"}}); err != nil {
			t.Fatal(err)
		}
	})
}

func wholePart(ix *Index) Part {
	return Part{Index: ix, Counts: func(int) bool { return true }, Keep: func(int) bool { return true },
		Order: func(doc int) (int64, uint64) { return 0, uint64(doc) }}
}

func openParts(t *testing.T, indexes ...[]byte) []Part {
	t.Helper()
	var parts []Part
	for _, data := range indexes {
		ix, err := OpenIndex(data)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, wholePart(ix))
	}
	return parts
}

// A search over an index split into parts ranks as over the whole: the
// statistics are the corpus', whatever index a document is in. A part's
// copies of documents another part holds (a record on two branches) change
// nothing when they do not count.
func TestPartsRankAsTheWhole(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 2))
	docs := indexAll(randomDocs(rng, 400))
	whole := openParts(t, Encode(docs))
	split := openParts(t, Encode(docs[:150]), Encode(docs[150:]), Encode(docs[:100]))
	split[1].Order = func(doc int) (int64, uint64) { return 0, uint64(doc + 150) }
	split[2].Counts = func(int) bool { return false }
	for _, q := range []string{"advisory lock", "pgbouncer timeout", "race overlay", "internal/session", "token ref", "--race"} {
		want, err := Search(whole, Query{Phrasings: []string{q}})
		if err != nil {
			t.Fatal(err)
		}
		got, err := Search(split, Query{Phrasings: []string{q}})
		if err != nil {
			t.Fatal(err)
		}
		// The first few, taken through a heap, are the head of the whole order.
		head, err := Search(split, Query{Phrasings: []string{q, "lock retry"}, Limit: 7})
		if err != nil {
			t.Fatal(err)
		}
		all, err := Search(split, Query{Phrasings: []string{q, "lock retry"}})
		if err != nil {
			t.Fatal(err)
		}
		if len(head.Hits) != 7 || !slices.Equal(head.Hits, all.Hits[:7]) || head.Total != all.Total {
			t.Fatalf("%q: the first 7 are %v of %d, the whole order begins %v of %d", q, head.Hits, head.Total, all.Hits[:7], all.Total)
		}
		if want.Total == 0 || got.Total != want.Total {
			t.Fatalf("%q: %d hits split, %d whole", q, got.Total, want.Total)
		}
		for i, h := range got.Hits {
			doc := h.Doc
			if h.Part == 1 {
				doc += 150
			}
			if w := want.Hits[i]; doc != w.Doc || fmt.Sprintf("%.9f", h.Score) != fmt.Sprintf("%.9f", w.Score) {
				t.Fatalf("%q: hit %d is %d (%.6f) split, %d (%.6f) whole", q, i, doc, h.Score, w.Doc, w.Score)
			}
		}
	}
}

// The ranking itself: a title outweighs a body, a rare word a common one,
// the last word matches as a prefix, the index's facets filter, and
// several phrasings fuse.
func TestRanking(t *testing.T) {
	doc := func(domain string, strong, meta, body string) Doc {
		return Doc{Domain: domain, Type: changelog.TypeConvention, text: [numFields]string{strong, meta, body}}
	}
	docs := []Doc{
		0: doc("db", "pooling", "db", "use pgbouncer in transaction mode for every service"),
		1: doc("db", "pgbouncer transaction mode", "db", "pooling for every service"),
		2: doc("ci", "overlay tests", "ci", "run the overlay tests with --race or they miss the data race"),
		3: doc("ci", "dashboard", "ci", "build the dashboard with go run ./cmd/build-dashboard"),
		4: doc("auth", "tokens", "auth", "refresh tokens expire after one hour"),
	}
	data := Encode(indexAll(docs))
	parts := openParts(t, data)
	search := func(q Query) []int {
		t.Helper()
		res, err := Search(parts, q)
		if err != nil {
			t.Fatal(err)
		}
		var out []int
		for _, h := range res.Hits {
			out = append(out, h.Doc)
		}
		return out
	}
	for _, c := range []struct {
		q    Query
		want []int
	}{
		{Query{Phrasings: []string{"pgbouncer"}}, []int{1, 0}},
		{Query{Phrasings: []string{"race"}}, []int{2}},
		{Query{Phrasings: []string{"dashb"}}, []int{3}},
		{Query{Phrasings: []string{"refreshing token"}}, []int{4}},
		{Query{Phrasings: []string{"service"}, Filters: Filters{Domains: []string{"ci"}}}, nil},
		{Query{Phrasings: []string{"every service"}, Filters: Filters{Domains: []string{"db"}}}, []int{1, 0}}, // the shorter body
		{Query{Phrasings: []string{"tests"}, Filters: Filters{Types: []changelog.Type{changelog.TypeFailure}}}, nil},
		{Query{Phrasings: []string{"the and of"}}, nil},
		{Query{Phrasings: []string{"tokens", "dashboard"}, Limit: 5}, []int{3, 4}},
	} {
		if got := search(c.q); !slices.Equal(got, c.want) {
			t.Errorf("%v %+v: got %v, want %v", c.q.Phrasings, c.q.Filters, got, c.want)
		}
	}
}
