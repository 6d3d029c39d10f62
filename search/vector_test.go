package search

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/embed"
	"github.com/planq-dev/planq/internal/testkit/testmodel"
)

// synonymTable is a table in which the words of each group share one
// vector and the groups are orthogonal.
func synonymTable(t testing.TB, groups ...string) *embed.Table {
	t.Helper()
	tab, err := testmodel.Synonyms(groups...)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// embedded is the vectors of docs by m, as the read model keeps them.
func embedded(t testing.TB, m embed.Model, docs []Doc) *Vectors {
	t.Helper()
	texts := make([]string, len(docs))
	for i, d := range docs {
		texts[i] = d.Text()
	}
	vs, err := m.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	out := &Vectors{Dim: m.Dim()}
	for _, v := range vs {
		var scale float32
		out.Data, scale = Quantise(out.Data, v)
		out.Scales = append(out.Scales, scale)
	}
	return out
}

func queryVectors(t testing.TB, m embed.Model, phrasings ...string) [][]float32 {
	t.Helper()
	vs, err := m.Embed(context.Background(), phrasings)
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

// The case of the issue: a question worded as an agent thinks shares no
// content word with the record that answers it. Its words find other
// records, never that one; its meaning finds it, and fused with the words'
// ranking it comes among the first, beside the record that shares the
// question's words.
func TestVectorChannelFindsOtherWords(t *testing.T) {
	doc := func(title, body string) Doc {
		return Doc{Domain: "billing", Type: changelog.TypeFailure, text: [numFields]string{title, "billing", body}}
	}
	docs := []Doc{
		0: doc("Billing aggregates skip tenants", "Billing aggregates skip tenants whose invoices are still in draft."),
		1: doc("Monthly report layout", "The report's columns follow the finance team's template."),
		2: doc("Customer export", "Exports run nightly for every customer."),
		3: doc("Empty dashboards", "A dashboard with no panels shows a hint."),
	}
	tab := synonymTable(t,
		"billing monthly report aggregates",
		"tenants customers customer tenant",
		"draft empty missing unfinished",
		"invoices invoice",
		"template columns layout")
	parts := openParts(t, Encode(indexAll(docs)))
	question := "why does the monthly report come out empty for some customers"

	words, err := Search(parts, Query{Phrasings: []string{question}, Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range words.Hits {
		if h.Doc == 0 {
			t.Fatalf("the words alone find record 0 (%v): the case needs them to miss it", words.Hits)
		}
	}

	parts[0].Vectors = embedded(t, tab, docs)
	res, err := Search(parts, Query{Phrasings: []string{question}, Vectors: queryVectors(t, tab, question), Limit: 5, Explain: true})
	if err != nil {
		t.Fatal(err)
	}
	at := -1
	for i, h := range res.Hits {
		if h.Doc == 0 {
			at = i
		}
	}
	if !res.Vector || at < 0 || at > 1 {
		t.Fatalf("words and meaning rank %v (vector channel %v); want record 0, the answer in other words, among the first two", res.Hits, res.Vector)
	}
	if res.Total != words.Total+1 {
		t.Errorf("total %d with the vector channel, %d without: the record found by its meaning counts, once", res.Total, words.Total)
	}
	ex := res.Explain[at]
	if len(ex.Places) != 1 || ex.Places[0].Channel != Vector || ex.Places[0].Rank != 1 || ex.Places[0].Score < minCosine || ex.Places[0].RRF == 0 {
		t.Errorf("explanation of the first hit %+v: want its first place by the vector channel alone, with what it added", ex)
	}
	var sum float64
	for _, p := range ex.Places {
		sum += p.RRF + p.Standout
	}
	if math.Abs(sum-ex.Score) > 1e-9 || ex.Score != res.Hits[at].Score {
		t.Errorf("explained places add up to %v; the hit's score is %v (explained %v)", sum, res.Hits[at].Score, ex.Score)
	}
}

// The vector channel finds only what the words' channel may: no document
// a filter leaves out (domain, type, or what the part's Keep refuses), and
// no copy that does not count.
func TestVectorChannelKeepsTheFilters(t *testing.T) {
	tab := synonymTable(t, "lock mutex latch", "deploy release")
	var docs []Doc
	for i := range 40 {
		domain, typ := "db", changelog.TypeConvention
		if i%3 == 0 {
			domain = "ci"
		}
		if i%4 == 0 {
			typ = changelog.TypeFailure
		}
		docs = append(docs, Doc{Domain: domain, Type: typ, text: [numFields]string{fmt.Sprintf("note %d", i), "", "the mutex is held"}})
	}
	parts := openParts(t, Encode(indexAll(docs)))
	parts[0].Vectors = embedded(t, tab, docs)
	parts[0].Keep = func(doc int) bool { return doc%5 != 0 }
	parts[0].Counts = func(doc int) bool { return doc != 7 }
	q := Query{Phrasings: []string{"latch"}, Vectors: queryVectors(t, tab, "latch"), Limit: 50}
	q.Domains, q.Types = []string{"db"}, []changelog.Type{changelog.TypeConvention}
	res, err := Search(parts, q)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for i := range docs {
		if i%3 != 0 && i%4 != 0 && i%5 != 0 && i != 7 {
			want++
		}
	}
	if !res.Vector || len(res.Hits) != want || res.Total != want {
		t.Fatalf("%d hits of %d, want %d: every kept document, by its meaning alone", len(res.Hits), res.Total, want)
	}
	for _, h := range res.Hits {
		if d := h.Doc; d%3 == 0 || d%4 == 0 || d%5 == 0 || d == 7 {
			t.Errorf("hit %d is one the filters leave out", d)
		}
	}
}

// A phrasing the model knows no word of, and a model of another dimension
// than the parts' vectors, leave the search to words: one ranking, its
// BM25F scores intact.
func TestVectorChannelOffRanksByWords(t *testing.T) {
	tab := synonymTable(t, "lock mutex latch", "deploy release")
	rng := rand.New(rand.NewPCG(3, 3))
	docs := randomDocs(rng, 200)
	parts := openParts(t, Encode(indexAll(docs)))
	words, err := Search(parts, Query{Phrasings: []string{"advisory lock"}, Limit: 8})
	if err != nil {
		t.Fatal(err)
	}
	parts[0].Vectors = embedded(t, tab, docs)
	for name, vecs := range map[string][][]float32{
		"unknown words": queryVectors(t, tab, "advisory pgbouncer"),
		"other dim":     {{0.6, 0.8, 0}},
		"none":          nil,
	} {
		res, err := Search(parts, Query{Phrasings: []string{"advisory lock"}, Vectors: vecs, Limit: 8})
		if err != nil {
			t.Fatal(err)
		}
		if res.Vector || fmt.Sprint(res.Hits) != fmt.Sprint(words.Hits) || res.Total != words.Total {
			t.Errorf("%s: %v of %d (vector %v), want the words' %v of %d", name, res.Hits, res.Total, res.Vector, words.Hits, words.Total)
		}
	}
}

// Quantised vectors keep their cosine similarity to within a hundredth.
func TestQuantiseKeepsCosine(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for range 200 {
		a, b := randomUnit(rng, 64), randomUnit(rng, 64)
		data, scale := Quantise(nil, b)
		got := float64(scale * dot(a, data))
		var want float64
		for j := range a {
			want += float64(a[j]) * float64(b[j])
		}
		if math.Abs(got-want) > 0.01 {
			t.Fatalf("cosine %.4f quantised, %.4f exact", got, want)
		}
	}
	if data, scale := Quantise(nil, make([]float32, 8)); scale != 0 || len(data) != 8 {
		t.Errorf("the zero vector quantises to %v at scale %v", data, scale)
	}
	if _, scale := Quantise(nil, []float32{float32(math.NaN()), 1}); scale != 0 {
		t.Errorf("a vector with a NaN quantises at scale %v, want 0: never found", scale)
	}
}

func randomUnit(rng *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	var ss float64
	for j := range v {
		v[j] = float32(rng.NormFloat64())
		ss += float64(v[j]) * float64(v[j])
	}
	for j := range v {
		v[j] /= float32(math.Sqrt(ss))
	}
	return v
}

// BenchmarkVectorRanking ranks 50,000 documents of dimension 64 by brute
// force, as a search over the largest memories does.
func BenchmarkVectorRanking(b *testing.B) {
	const n, dim = 50000, 64
	rng := rand.New(rand.NewPCG(1, 1))
	vecs := &Vectors{Dim: dim}
	for range n {
		var scale float32
		vecs.Data, scale = Quantise(vecs.Data, randomUnit(rng, dim))
		vecs.Scales = append(vecs.Scales, scale)
	}
	docs := make([]Indexed, n)
	for i := range docs {
		docs[i] = Doc{text: [numFields]string{"word"}}.Index()
	}
	ix, err := OpenIndex(Encode(docs))
	if err != nil {
		b.Fatal(err)
	}
	part := wholePart(ix)
	part.Vectors = vecs
	q := randomUnit(rng, dim)
	b.ResetTimer()
	for range b.N {
		s := newSearcher([]Part{part}, Query{})
		if hits := s.rankVector(q, 40); len(hits) == 0 {
			b.Fatal("nothing ranked")
		}
	}
}

// A record found by its meaning alone holds none of the query's terms: its
// snippet is what it says first, not its frontmatter.
func TestSnippetOfARecordFoundByMeaning(t *testing.T) {
	text := "---\nid: pq-0123456789\nkind: learning\n---\n\nTokens expire after 15 minutes.\nRefresh on 401.\n"
	from, to, snippet := Snippet(text, []string{"credenti", "laps"}, 700)
	if from != 6 || !strings.HasPrefix(snippet, "Tokens expire after 15 minutes.") || to < 7 {
		t.Errorf("lines %d-%d %q: want the text from line 6", from, to, snippet)
	}
	if from, _, snippet := Snippet("no frontmatter here\n", nil, 700); from != 1 || snippet != "no frontmatter here" {
		t.Errorf("without frontmatter: line %d %q", from, snippet)
	}
}

// VectorOnly leaves the words' rankings out: what the words alone would
// find first is found only where its meaning is near.
func TestVectorOnly(t *testing.T) {
	tab := synonymTable(t, "lock mutex latch", "deploy release")
	docs := []Doc{
		{text: [numFields]string{"deploy lock", "", ""}},
		{text: [numFields]string{"the mutex", "", ""}},
		{text: [numFields]string{"release", "", ""}},
	}
	parts := openParts(t, Encode(indexAll(docs)))
	parts[0].Vectors = embedded(t, tab, docs)
	res, err := Search(parts, Query{Phrasings: []string{"lock"}, Vectors: queryVectors(t, tab, "lock"), Limit: 5, VectorOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 2 || res.Hits[0].Doc != 1 || res.Hits[1].Doc != 0 || res.Total != 2 {
		t.Errorf("by meaning alone %v of %d; want the mutex (cosine 1), then deploy lock", res.Hits, res.Total)
	}
}
