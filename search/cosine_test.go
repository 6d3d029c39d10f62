package search

import (
	"math/rand/v2"
	"testing"

	"github.com/planq-dev/planq/changelog"
)

// Issue 36, item 12: a record found by the very words it holds was shown a
// cosine above 1 (1.0012), because its vector, quantised to int8 with the
// largest part at 127, was no longer of unit length. The vector channel's
// cosine of a unit vector with any stored vector, its own included, is at
// most 1.
func TestQuantisedCosineAtMostOne(t *testing.T) {
	r := rand.New(rand.NewPCG(36, 12))
	worst := float32(0)
	for range 2000 {
		dim := 8 + r.IntN(249)
		v := randomUnit(r, dim)
		data, scale := Quantise(nil, v)
		if cos := scale * dot(v, data); cos > worst {
			worst = cos
		}
	}
	if worst > 1+1e-6 {
		t.Errorf("a unit vector's cosine with itself, quantised, reaches %v: its stored vector is longer than 1", worst)
	}
}

// What Search ranks and explains is a cosine: at most 1, for the document
// whose vector is the query's own.
func TestVectorScoreAtMostOne(t *testing.T) {
	r := rand.New(rand.NewPCG(36, 6))
	const dim = 64
	var docs []Doc
	var vecs [][]float32
	for range 200 {
		docs = append(docs, Doc{Domain: "d", Type: changelog.TypePattern, text: [numFields]string{"record", "d", "body"}})
		vecs = append(vecs, randomUnit(r, dim))
	}
	parts := openParts(t, Encode(indexAll(docs)))
	stored := &Vectors{Dim: dim}
	for _, v := range vecs {
		var scale float32
		stored.Data, scale = Quantise(stored.Data, v)
		stored.Scales = append(stored.Scales, scale)
	}
	parts[0].Vectors = stored
	for doc, q := range vecs {
		res, err := Search(parts, Query{Phrasings: []string{"record"}, Vectors: [][]float32{q}, Limit: 1, Explain: true, VectorOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) != 1 || res.Hits[0].Doc != doc {
			t.Fatalf("the query of document %d's own vector finds %v", doc, res.Hits)
		}
		for _, p := range res.Explain[0].Places {
			if p.Score > 1 || p.Score < -1 {
				t.Fatalf("document %d's own vector is explained a cosine of %v", doc, p.Score)
			}
		}
		if s := res.Hits[0].Score; s > 1 {
			t.Fatalf("document %d's own vector scores %v, past a cosine's 1", doc, s)
		}
	}
}

// Cosine, as dedupe and the knowledge base compare records, is within
// [-1, 1] however float32's sums round.
func TestCosineWithinOne(t *testing.T) {
	r := rand.New(rand.NewPCG(36, 7))
	for range 2000 {
		v := randomUnit(r, 8+r.IntN(500))
		neg := make([]float32, len(v))
		for i, x := range v {
			neg[i] = -x
		}
		if c := Cosine(v, v); c > 1 {
			t.Fatalf("a unit vector's cosine with itself is %v, past 1", c)
		}
		if c := Cosine(v, neg); c < -1 {
			t.Fatalf("a unit vector's cosine with its opposite is %v, past -1", c)
		}
	}
}
