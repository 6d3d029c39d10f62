package search

import (
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/planq-dev/planq/changelog"
)

// Filters narrow what a search may return.
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
	Filters
	Limit int
}

// Hit is a document that matches, with its score: BM25F for one phrasing,
// reciprocal rank fusion over several.
type Hit struct {
	Doc   *Doc
	Score float64
}

// Result is what a search found: the hits asked for, best first, how many
// matched in all, and the terms each hit was matched on (for snippets).
type Result struct {
	Hits  []Hit
	Total int
	Terms []string
}

// rrfK is reciprocal rank fusion's constant: the usual 60, so that a hit
// ranked well by one phrasing is not drowned by noise ranked by another.
const rrfK = 60

// maxPrefixTerms bounds how many terms the last word expands to.
const maxPrefixTerms = 16

// Search ranks the documents for q. A query with no word to look for (empty,
// or only stop words) finds nothing.
func (ix *Index) Search(q Query) Result {
	keep := ix.filter(q)
	var res Result
	var ranked [][]Hit
	for _, p := range q.Phrasings {
		qt := queryTerms(ix, p)
		if len(qt) == 0 {
			continue
		}
		for t := range qt {
			res.Terms = append(res.Terms, t)
		}
		ranked = append(ranked, ix.rank(qt, keep))
	}
	slices.Sort(res.Terms)
	res.Terms = slices.Compact(res.Terms)
	hits := fuse(ranked)
	res.Total = len(hits)
	if q.Limit > 0 && len(hits) > q.Limit {
		hits = hits[:q.Limit]
	}
	res.Hits = hits
	return res
}

// queryTerms are the terms of one phrasing with their weights: each word's
// terms at 1, and, for the last word (still being typed, perhaps), the
// indexed terms it is a prefix of at 0.5.
func queryTerms(ix *Index, phrasing string) map[string]float64 {
	out := map[string]float64{}
	for _, t := range Terms(phrasing) {
		out[t] = 1
	}
	ws := words(phrasing)
	if len(ws) == 0 {
		return out
	}
	parts := splitIdentifier(ws[len(ws)-1])
	last := strings.ToLower(parts[len(parts)-1])
	if len(last) < 3 || term(last) == "" {
		return out
	}
	for _, t := range ix.withPrefix(last, maxPrefixTerms) {
		if _, ok := out[t]; !ok {
			out[t] = 0.5
		}
	}
	return out
}

// filter says which documents a query may return.
func (ix *Index) filter(q Query) []bool {
	retracted := map[string]bool{}
	for _, d := range ix.docs {
		if d.Tombstone && d.Supersedes != "" {
			retracted[d.Supersedes] = true
		}
	}
	keep := make([]bool, len(ix.docs))
	for i := range ix.docs {
		d := &ix.docs[i]
		keep[i] = !d.Tombstone && !retracted[d.ID] &&
			(q.AllVersions || !ix.replaced[d.ID]) &&
			(len(q.Kinds) == 0 || slices.Contains(q.Kinds, d.Kind)) &&
			(len(q.Domains) == 0 || slices.Contains(q.Domains, d.Domain)) &&
			(len(q.Types) == 0 || slices.Contains(q.Types, d.Type)) &&
			(len(q.Agents) == 0 || slices.Contains(q.Agents, d.Agent)) &&
			(q.Since.IsZero() || !d.Time.Before(q.Since))
	}
	return keep
}

// rank scores the kept documents holding any of terms with BM25F, best
// first; at equal scores foundational records, then newer ones, first.
func (ix *Index) rank(terms map[string]float64, keep []bool) []Hit {
	n := float64(len(ix.docs))
	scores := map[int32]float64{}
	for t, weight := range terms {
		ps := ix.postings[t]
		if len(ps) == 0 {
			continue
		}
		idf := math.Log(1 + (n-float64(len(ps))+0.5)/(float64(len(ps))+0.5))
		for _, p := range ps {
			if !keep[p.doc] {
				continue
			}
			var tf float64
			for f := range numFields {
				if p.tf[f] > 0 {
					norm := (1 - b) + b*float64(ix.lengths[p.doc][f])/ix.avgLen[f]
					tf += weights[f] * float64(p.tf[f]) / norm
				}
			}
			scores[p.doc] += weight * idf * tf * (k1 + 1) / (tf + k1)
		}
	}
	hits := make([]Hit, 0, len(scores))
	for doc, s := range scores {
		hits = append(hits, Hit{Doc: &ix.docs[doc], Score: s})
	}
	sortHits(hits)
	return hits
}

// sortHits orders hits by score, then, at equal relevance, foundational
// before observational before tactical, newer before older, and by ID, so
// the order never depends on map iteration.
func sortHits(hits []Hit) {
	sort.Slice(hits, func(i, j int) bool {
		a, b := hits[i], hits[j]
		if sa, sb := math.Round(a.Score*1e6), math.Round(b.Score*1e6); sa != sb {
			return sa > sb
		}
		if ca, cb := lasting(a.Doc.Classification), lasting(b.Doc.Classification); ca != cb {
			return ca > cb
		}
		if !a.Doc.Time.Equal(b.Doc.Time) {
			return a.Doc.Time.After(b.Doc.Time)
		}
		return a.Doc.ID < b.Doc.ID
	})
}

// lasting ranks classifications by how long what they say stays true.
func lasting(c changelog.Classification) int {
	switch c {
	case changelog.Foundational:
		return 2
	case changelog.Observational:
		return 1
	case changelog.Tactical:
		return 0
	}
	return 0
}

// fuse merges the rankings of several phrasings by reciprocal rank: a
// document's score is the sum of 1/(k + rank) over the rankings it is in.
// One ranking is returned as it is, its BM25F scores intact.
func fuse(ranked [][]Hit) []Hit {
	switch len(ranked) {
	case 0:
		return nil
	case 1:
		return ranked[0]
	}
	scores := map[*Doc]float64{}
	for _, hits := range ranked {
		for i, h := range hits {
			scores[h.Doc] += 1 / float64(rrfK+i+1)
		}
	}
	out := make([]Hit, 0, len(scores))
	for d, s := range scores {
		out = append(out, Hit{Doc: d, Score: s})
	}
	sortHits(out)
	return out
}
