package search

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkSearch ranks 20,000 documents of a small vocabulary, where
// every word is in thousands of them: the cost is reading postings,
// scoring and, for several phrasings, fusing their rankings.
func BenchmarkSearch(b *testing.B) {
	rng := rand.New(rand.NewPCG(13, 13))
	ix, err := OpenIndex(Encode(indexAll(randomDocs(rng, 20000))))
	if err != nil {
		b.Fatal(err)
	}
	parts := []Part{wholePart(ix)}
	for _, c := range []struct {
		name string
		q    Query
	}{
		{"one", Query{Phrasings: []string{"advisory lock pgbouncer timeout"}, Limit: 8}},
		{"three", Query{Phrasings: []string{"advisory lock pgbouncer timeout", "session race overlay", "retry backoff 503"}, Limit: 8}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Search(parts, c.q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
