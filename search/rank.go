package search

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/planq-dev/planq/changelog"
)

// Filters narrow what a search may return. Search applies the domains and
// types, which the index holds; the rest are for the owner of the parts to
// apply in Part.Keep, from what it holds of each document.
type Filters struct {
	Kinds   []changelog.Kind
	Domains []string
	Types   []changelog.Type
	// Agents are the writers whose records count.
	Agents []string
	// Since drops records older than it.
	Since time.Time
	// AllVersions keeps versions a later one superseded (never retracted ones).
	AllVersions bool
}

// Query is a question, in one or more phrasings, with filters.
type Query struct {
	// Phrasings are the ways of asking; each is ranked, then they are
	// fused. Two or three, including identifiers the record may contain,
	// find more than one.
	Phrasings []string
	// Vectors are the phrasings' embeddings, one per phrasing, by the
	// model that embedded the parts' Vectors: each phrasing is ranked by
	// its words and by its vector, and the rankings fused. Nil, or a
	// phrasing's zero vector (no word the model knows), ranks by words
	// alone.
	Vectors [][]float32
	Filters
	Limit int
	// Explain asks for each hit's places in the rankings that fused
	// (Result.Explain).
	Explain bool
	// VectorOnly ranks by meaning alone, leaving the words' rankings out:
	// what the evaluation measures the vector channel by.
	VectorOnly bool
}

// A Part is one index a search reads, and what its owner knows of the
// documents in it.
type Part struct {
	Index *Index
	// Counts reports whether document doc counts in the corpus: false for
	// a copy of a document an earlier part holds, so that a record on two
	// branches weighs as one.
	Counts func(doc int) bool
	// Keep reports whether document doc may be found: a current version,
	// within the filters the index does not hold.
	Keep func(doc int) bool
	// Order orders documents of equal relevance and classification: the
	// newer first, then by key.
	Order func(doc int) (at int64, key uint64)
	// Vectors are the documents' embeddings, for the vector channel; nil
	// when the part has none (no model), and then only words find its
	// documents.
	Vectors *Vectors
}

// Hit is a document that matches, by its part and number there, with its
// score: the one ranking's (BM25F, or cosine similarity) when only one was
// made, else the fused score (see fuse).
type Hit struct {
	Part, Doc int
	Score     float64
}

// Result is what a search found: the hits asked for, best first, how many
// matched in all (by their words or, above minCosine, by their meaning),
// and the terms the query looked for (for snippets).
type Result struct {
	Hits  []Hit
	Total int
	Terms []string
	// Vector says whether the vector channel ranked: some phrasing had a
	// vector, and some part vectors to rank.
	Vector bool
	// Explain is, when the query asked, each hit's explanation, in the
	// order of Hits.
	Explain []Explanation
}

// Explanation is how a hit came by its place: the rankings that held it
// and what each added to its fused score.
type Explanation struct {
	// Score is the hit's score: the fused one, or, when only one ranking
	// was made, that ranking's.
	Score  float64
	Places []Place
}

// Place is a hit's place in one ranking.
type Place struct {
	// Phrasing is the index of the ranking's phrasing in Query.Phrasings.
	Phrasing int
	Channel  Channel
	// Rank is 1 for the ranking's first; Score is the channel's own:
	// BM25F, or cosine similarity.
	Rank  int
	Score float64
	// RRF and Standout are what the place added to the fused score (see
	// fuse): its reciprocal rank, and how far it stands out from the
	// ranking's background. Both 0 when nothing was fused.
	RRF, Standout float64
}

// PartError is a part whose index did not read: its owner builds it again.
type PartError struct {
	Part int
	Err  error
}

func (e *PartError) Error() string { return fmt.Sprintf("part %d: %v", e.Part, e.Err) }

func (e *PartError) Unwrap() error { return e.Err }

// rrfK is reciprocal rank fusion's constant. The usual 60 was chosen for
// fusing many systems' deep rankings; an agent's two or three phrasings of
// one question put the answer near the top of one of them, and 20 lets that
// first place count for more than a middling place in each (recall@5 in
// three phrasings .896 -> .958 on the evaluation, seed 1; .896 -> .917,
// seed 2), while a hit ranked well by one phrasing still beats noise ranked
// by another.
const rrfK = 20

// standoutDepth is how many of a ranking's first hits may stand out from
// it (see fuse): the first ten, as many as an agent reads, and the hit
// after them is the ranking's background.
const standoutDepth = 10

// standoutWeight is what a hit that stands out from its ranking wholly
// (the only hit, or one scoring far above the rest) adds to its fused
// score: three first places' worth of reciprocal rank, so that one
// phrasing's exact hit outweighs middling places in the others, while two
// phrasings that each single out another record can still outvote it.
// On the evaluation two found fewer answers, three and four about alike
// (four one more in the first five, on one seed), six fewer first places.
const standoutWeight = 3.0 / (rrfK + 1)

// maxPrefixTerms bounds how many terms the last word expands to.
const maxPrefixTerms = 16

// Search ranks the documents of parts for q: each phrasing by its words
// (BM25F) and, when q has its vector and parts have theirs, by its
// meaning (cosine similarity), and fuses the rankings (see fuse). A query
// with no word to look for (empty, or only stop words) finds nothing. The
// error is the first read of an index that failed, a *PartError that says
// which part.
func Search(parts []Part, q Query) (Result, error) {
	s := newSearcher(parts, q)
	var res Result
	queries, rankings, err := s.ask(q, vectorDim(parts), &res)
	if err != nil {
		return Result{}, err
	}
	// One ranking is the answer as it is; several are fused from the
	// words' best fuseDepth, so that the first few are the head of the
	// whole fused order, and from the vectors' best oversample times the
	// limit.
	depth, vecDepth := q.Limit, q.Limit
	if rankings > 1 && q.Limit > 0 {
		depth = max(fuseDepth, q.Limit)
		vecDepth = max(oversample*q.Limit, standoutDepth+1)
	}
	var ranked []ranking
	for _, a := range queries {
		if !q.VectorOnly {
			hits, err := s.rank(a.terms, depth)
			if err != nil {
				return Result{}, err
			}
			ranked = append(ranked, ranking{phrasing: a.phrasing, channel: Lexical, hits: hits})
		}
		if a.vector != nil {
			ranked = append(ranked, ranking{phrasing: a.phrasing, channel: Vector, hits: s.rankVector(a.vector, vecDepth)})
		}
	}
	slices.Sort(res.Terms)
	res.Terms = slices.Compact(res.Terms)
	res.Hits = s.fuse(ranked, q.Limit)
	if q.Explain {
		res.Explain = explain(ranked, res.Hits)
	}
	res.Total = s.total
	return res, nil
}

// asked is one phrasing as a search asks it: its terms, and its vector
// when the parts have theirs.
type asked struct {
	phrasing int
	terms    map[string]float64
	vector   []float32
}

// vectorDim is the dimension of the parts' vectors, 0 for none.
func vectorDim(parts []Part) int {
	for _, p := range parts {
		if p.Vectors != nil {
			return p.Vectors.Dim
		}
	}
	return 0
}

// ask is the phrasings of q that have a word to look for, and how many
// rankings they make; res gets their terms and whether the vectors rank.
func (s *searcher) ask(q Query, dim int, res *Result) ([]asked, int, error) {
	var queries []asked
	rankings := 0
	for i, p := range q.Phrasings {
		qt, err := s.queryTerms(p)
		if err != nil {
			return nil, 0, err
		}
		if len(qt) == 0 {
			continue
		}
		for t := range qt {
			res.Terms = append(res.Terms, t)
		}
		a := asked{phrasing: i, terms: qt}
		if i < len(q.Vectors) && unit(q.Vectors[i], dim) {
			a.vector = q.Vectors[i]
			res.Vector = true
			rankings++
		}
		queries = append(queries, a)
		if !q.VectorOnly {
			rankings++
		}
	}
	return queries, rankings, nil
}

// searcher is one search over parts: the corpus' statistics, each part's
// reads and facet filters, and the postings read so far.
type searcher struct {
	parts    []Part
	readings []*reading
	// facetOK says, per part, which domain and type table entries pass.
	domainOK, typeOK [][]bool
	docs             float64
	avgLen           [numFields]float64
	postings         map[string][]termPostings // by term, by part
	// scores are a phrasing's, by part and document; matched marks every
	// document any phrasing scored, total counts them.
	scores  [][]float64
	matched [][]bool
	total   int
	touched []docKey
}

func newSearcher(parts []Part, q Query) *searcher {
	s := &searcher{parts: parts, postings: map[string][]termPostings{}}
	var total [numFields]float64
	for _, p := range parts {
		s.readings = append(s.readings, p.Index.reading())
		s.domainOK = append(s.domainOK, allowed(p.Index.domains, q.Domains))
		s.typeOK = append(s.typeOK, allowed(p.Index.types, q.Types))
		s.scores = append(s.scores, make([]float64, p.Index.docs))
		s.matched = append(s.matched, make([]bool, p.Index.docs))
		for d := range p.Index.docs {
			if !p.Counts(d) {
				continue
			}
			s.docs++
			for f, n := range p.Index.lengths(d) {
				total[f] += float64(n)
			}
		}
	}
	for f := range numFields {
		if s.docs > 0 {
			s.avgLen[f] = max(total[f]/s.docs, 1)
		}
	}
	return s
}

// allowed marks the entries of table that are in want; all of them when
// want is empty.
func allowed[T ~string](table []string, want []T) []bool {
	out := make([]bool, len(table))
	for i, v := range table {
		out[i] = len(want) == 0 || slices.Contains(want, T(v))
	}
	return out
}

func (s *searcher) keep(part, doc int) bool {
	ix := s.parts[part].Index
	at := ix.perDoc[doc*perDocSize:]
	return s.domainOK[part][int(at[6])|int(at[7])<<8] && s.typeOK[part][at[8]] &&
		s.parts[part].Counts(doc) && s.parts[part].Keep(doc)
}

// queryTerms are the terms of one phrasing with their weights: each word's
// terms at 1, and, for the last word (still being typed, perhaps), the
// indexed terms it is a prefix of at 0.5.
func (s *searcher) queryTerms(phrasing string) (map[string]float64, error) {
	out := map[string]float64{}
	for _, t := range Terms(phrasing) {
		out[t] = 1
	}
	ws := words(phrasing)
	if len(ws) == 0 {
		return out, nil
	}
	parts := splitIdentifier(ws[len(ws)-1])
	last := strings.ToLower(parts[len(parts)-1])
	if len(last) < 3 || term(last) == "" {
		return out, nil
	}
	// Each part's first terms with the prefix hold the first of all.
	var expanded []string
	for i, r := range s.readings {
		ts, err := r.withPrefix(last, maxPrefixTerms)
		if err != nil {
			return nil, &PartError{Part: i, Err: err}
		}
		expanded = append(expanded, ts...)
	}
	slices.Sort(expanded)
	expanded = slices.Compact(expanded)
	for _, t := range expanded[:min(len(expanded), maxPrefixTerms)] {
		if _, ok := out[t]; !ok {
			out[t] = 0.5
		}
	}
	return out, nil
}

type docKey struct{ part, doc int }

// fuseDepth is how many of each phrasing's best hits by its words are
// fused: a record ranked past it by every phrasing could gain at most
// 1/(k+1,001) a phrasing, too little to reach the first fifty.
const fuseDepth = 1000

// postingsOf finds term's postings in every part, checked (see
// checkPostings), once a search.
func (s *searcher) postingsOf(term string) ([]termPostings, error) {
	if ps, ok := s.postings[term]; ok {
		return ps, nil
	}
	out := make([]termPostings, len(s.parts))
	for i, r := range s.readings {
		e, ok, err := r.lookup(term)
		if err != nil {
			return nil, &PartError{Part: i, Err: err}
		}
		if !ok {
			continue
		}
		if out[i], err = r.postings(e); err != nil {
			return nil, &PartError{Part: i, Err: err}
		}
	}
	s.postings[term] = out
	return out, nil
}

// rank scores the kept documents holding any of terms with BM25F and
// returns the best depth of them (all for 0), best first; every document
// it scores is marked in matched.
func (s *searcher) rank(terms map[string]float64, depth int) ([]Hit, error) {
	touched := s.touched[:0]
	for _, t := range slices.Sorted(maps.Keys(terms)) { // summed in one order, for the same score every time
		byPart, err := s.postingsOf(t)
		if err != nil {
			return nil, err
		}
		df := 0.0
		for i, ps := range byPart {
			counts := s.parts[i].Counts
			ps.each(func(doc int, _ [numFields]uint16) {
				if counts(doc) {
					df++
				}
			})
		}
		if df == 0 {
			continue
		}
		idf := math.Log(1 + (s.docs-df+0.5)/(df+0.5))
		for i, ps := range byPart {
			ix, scores := s.parts[i].Index, s.scores[i]
			ps.each(func(doc int, tfs [numFields]uint16) {
				if !s.keep(i, doc) {
					return
				}
				lengths := ix.lengths(doc)
				var tf float64
				for f := range numFields {
					if tfs[f] > 0 {
						norm := (1 - b) + b*float64(lengths[f])/s.avgLen[f]
						tf += weights[f] * float64(tfs[f]) / norm
					}
				}
				if scores[doc] == 0 {
					touched = append(touched, docKey{i, doc})
				}
				scores[doc] += terms[t] * idf * tf * (k1 + 1) / (tf + k1)
			})
		}
	}
	s.touched = touched // its memory, for the next phrasing
	hits := s.best(depth, func(yield func(Hit)) {
		for _, k := range touched {
			yield(Hit{Part: k.part, Doc: k.doc, Score: s.scores[k.part][k.doc]})
		}
	})
	for _, k := range touched {
		s.scores[k.part][k.doc] = 0 // for the next phrasing
		if !s.matched[k.part][k.doc] {
			s.matched[k.part][k.doc] = true
			s.total++
		}
	}
	return hits, nil
}

// keyed is a hit with what orders it.
type keyed struct {
	score   float64
	lasting int
	at      int64
	key     uint64
	hit     Hit
}

// before orders hits by score, then, at equal relevance, foundational
// before observational before tactical, newer before older, and by key, so
// the order never depends on map iteration.
func before(x, y keyed) int {
	if c := cmp.Compare(y.score, x.score); c != 0 {
		return c
	}
	if c := cmp.Compare(y.lasting, x.lasting); c != 0 {
		return c
	}
	if c := cmp.Compare(y.at, x.at); c != 0 {
		return c
	}
	return cmp.Compare(x.key, y.key)
}

func (s *searcher) keyed(h Hit) keyed {
	at, key := s.parts[h.Part].Order(h.Doc)
	return keyed{score: math.Round(h.Score * 1e6), lasting: s.lasting(h), at: at, key: key, hit: h}
}

// best returns the first n of hits in order (all of them when n is 0). A
// common word matches most records: they are passed through a heap of n,
// not sorted, and only a hit that scores at least as well as the heap's
// worst has its order keys read.
func (s *searcher) best(n int, hits func(yield func(Hit))) []Hit {
	if n <= 0 {
		n = math.MaxInt
	}
	var top []keyed
	worse := func(i, j int) bool { return before(top[i], top[j]) > 0 } // the heap's root is its worst
	down := func(i int) {
		for {
			w := i
			for _, c := range []int{2*i + 1, 2*i + 2} {
				if c < len(top) && worse(c, w) {
					w = c
				}
			}
			if w == i {
				return
			}
			top[i], top[w] = top[w], top[i]
			i = w
		}
	}
	hits(func(h Hit) {
		if len(top) == n && math.Round(h.Score*1e6) < top[0].score {
			return
		}
		k := s.keyed(h)
		if len(top) < n {
			top = append(top, k)
			for i := len(top) - 1; i > 0 && worse(i, (i-1)/2); i = (i - 1) / 2 {
				top[i], top[(i-1)/2] = top[(i-1)/2], top[i]
			}
			return
		}
		if before(k, top[0]) < 0 {
			top[0] = k
			down(0)
		}
	})
	slices.SortFunc(top, before)
	out := make([]Hit, len(top))
	for i, k := range top {
		out[i] = k.hit
	}
	return out
}

// lasting ranks a hit's classification by how long what it says stays true.
func (s *searcher) lasting(h Hit) int {
	switch changelog.Classification(s.parts[h.Part].Index.Classification(h.Doc)) {
	case changelog.Foundational:
		return 2
	case changelog.Observational:
		return 1
	case changelog.Tactical:
		return 0
	}
	return 0
}

// fuse merges rankings of one question into one: per phrasing, the
// lexical channel's (BM25F) and, when it ranked, the vector channel's
// (cosine similarity), each best first with its ranker's scores. A
// ranking's scores must be comparable within it, higher better, and above
// zero for what it found; fuse never compares scores across rankings.
//
// A document's fused score is its reciprocal rank, 1/(rrfK + rank) summed
// over the rankings that hold it, plus, for each ranking's first
// standoutDepth hits, how far its score stands out from that ranking's
// background (the score of the hit after them) as a share of the
// ranking's first score, weighted by standoutWeight:
//
//	sum over rankings of 1/(rrfK+rank) + standoutWeight * max(0, score - background) / first
//
// Reciprocal rank alone reads only places: a record that one phrasing
// ranks first on a rare, exact term (an identifier, an error code), far
// ahead of everything else it found, weighs no more than any first place,
// and less than a record that the other phrasings, worded without that
// term, rank second or third among many alike. The standout keeps such a
// hit on top: a phrasing that names an identifier has one or two hits
// that score far above its background, a vague phrasing has a flat list
// whose hits stand out from it by little, and a place in a flat list keeps
// its reciprocal rank. Of the fusions tried on the evaluation (go run
// ./scripts/searcheval, three phrasings, seeds 1, 2 and 7 at 5,000 records
// and seed 1 at 20,000), this one found the most: against reciprocal rank
// alone, recall@1 .812 -> .854, .812 -> .875, .771 -> .854, .812 -> .854
// and recall@10 .958 -> 1, .958 -> 1, .958 -> 1, .896 -> .938. A bonus
// for each ranking's first hit alone, by its lead over the second, found
// about as many first places but fewer in the first ten (.958, .979, .958,
// .896): it misses an identifier two records share. Only places and
// shares of a ranking's own first score enter it, so rankers whose scores
// are on other scales (BM25F, cosine similarity) fuse alike.
//
// One ranking is returned as it is, its scores intact.
func (s *searcher) fuse(ranked []ranking, limit int) []Hit {
	switch len(ranked) {
	case 0:
		return nil
	case 1:
		return ranked[0].hits
	}
	scores := map[docKey]float64{}
	for _, r := range ranked {
		for i, h := range r.hits {
			scores[docKey{h.Part, h.Doc}] += reciprocal(i)
		}
		standouts(r.hits, func(h Hit, standout float64) {
			scores[docKey{h.Part, h.Doc}] += standoutWeight * standout
		})
	}
	return s.best(limit, func(yield func(Hit)) {
		for k, sc := range scores {
			yield(Hit{Part: k.part, Doc: k.doc, Score: sc})
		}
	})
}

// ranking is one ranker's hits for one phrasing, best first.
type ranking struct {
	phrasing int
	channel  Channel
	hits     []Hit
}

// reciprocal is what the hit at index i of a ranking adds to its fused
// score by its place.
func reciprocal(i int) float64 { return 1 / float64(rrfK+i+1) }

// standouts calls fn with each of the first standoutDepth hits and how far
// it stands out from the ranking's background, as a share of its first
// score, from 0 to 1 (see fuse).
func standouts(hits []Hit, fn func(h Hit, standout float64)) {
	if len(hits) == 0 || hits[0].Score <= 0 {
		return
	}
	background := 0.0
	if len(hits) > standoutDepth {
		background = max(hits[standoutDepth].Score, 0)
	}
	for _, h := range hits[:min(standoutDepth, len(hits))] {
		fn(h, min(max(h.Score-background, 0)/hits[0].Score, 1))
	}
}

// explain says of each hit where the rankings placed it and what each
// place added to its score.
func explain(ranked []ranking, hits []Hit) []Explanation {
	at := make(map[docKey]int, len(hits))
	out := make([]Explanation, len(hits))
	for i, h := range hits {
		at[docKey{h.Part, h.Doc}] = i
		out[i].Score = h.Score
	}
	fused := len(ranked) > 1
	for _, r := range ranked {
		standout := map[docKey]float64{}
		if fused {
			standouts(r.hits, func(h Hit, v float64) { standout[docKey{h.Part, h.Doc}] = standoutWeight * v })
		}
		for rank, h := range r.hits {
			k := docKey{h.Part, h.Doc}
			i, ok := at[k]
			if !ok {
				continue
			}
			p := Place{Phrasing: r.phrasing, Channel: r.channel, Rank: rank + 1, Score: h.Score}
			if fused {
				p.RRF, p.Standout = reciprocal(rank), standout[k]
			}
			out[i].Places = append(out[i].Places, p)
		}
	}
	return out
}
