package search

import (
	"sort"
	"strings"
	"time"

	"github.com/planq-dev/planq/changelog"
)

// field is a part of a record that counts with its own weight.
type field int

const (
	// fieldStrong is what a record is: its title, subject, decision, name.
	fieldStrong field = iota
	// fieldMeta is where it belongs: domain, type, the files it concerns.
	fieldMeta
	// fieldBody is the rest of what it says.
	fieldBody
	numFields
)

// weights are the fields' weights in BM25F: a word in a title says more
// about the record than the same word in its body.
var weights = [numFields]float64{fieldStrong: 3, fieldMeta: 2, fieldBody: 1}

// BM25's parameters, at their usual values.
const (
	k1 = 1.2
	b  = 0.75
)

// Doc is one record as search sees it: what filters and results need, and
// its text by field.
type Doc struct {
	ID             string
	Path           string
	Kind           changelog.Kind
	Type           changelog.Type
	Domain         string
	Agent          string
	Status         changelog.Status
	Classification changelog.Classification
	Time           time.Time
	Title          string
	Supersedes     string
	Tombstone      bool
	text           [numFields]string
}

// DocOf is record r as a document.
func DocOf(r *changelog.Record) Doc {
	d := Doc{ID: r.ID, Path: r.Path, Kind: r.Kind, Type: r.Type, Domain: r.Domain, Agent: r.Agent,
		Status: r.Status, Classification: r.Classification, Time: r.Timestamp, Title: r.Title(),
		Supersedes: r.Supersedes, Tombstone: r.Tombstone}
	if r.Kind == changelog.KindDecision && r.Decision != "" {
		d.Title = r.Decision // what every listing calls a decision
	}
	strong := []string{r.Title(), r.Subject, r.Decision, r.Name}
	meta := []string{r.Domain, string(r.Type), string(r.Kind)}
	if r.Evidence != nil {
		meta = append(meta, r.Evidence.Files...)
		meta = append(meta, r.Evidence.Branch)
	}
	body := r.Body
	if title := r.Title(); title != "" {
		body = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(body), title))
	}
	bodyParts := append([]string{body, r.Rationale, r.Resolution}, r.Alternatives...)
	d.text = [numFields]string{
		fieldStrong: strings.Join(strong, "\n"),
		fieldMeta:   strings.Join(meta, "\n"),
		fieldBody:   strings.Join(bodyParts, "\n"),
	}
	return d
}

// posting is one document's counts of one term, by field.
type posting struct {
	doc int32
	tf  [numFields]uint16
}

// Index is an inverted index of documents: for each term, the documents
// holding it and how often, by field.
type Index struct {
	docs     []Doc
	lengths  [][numFields]uint16
	avgLen   [numFields]float64
	postings map[string][]posting
	terms    []string // sorted, for prefix matches
	// replaced are the IDs a later version or a retraction supersedes.
	replaced map[string]bool
}

// NewIndex indexes docs.
func NewIndex(docs []Doc) *Index {
	ix := &Index{docs: docs, lengths: make([][numFields]uint16, len(docs)), postings: map[string][]posting{}, replaced: map[string]bool{}}
	var total [numFields]float64
	for i, d := range docs {
		if d.Supersedes != "" {
			ix.replaced[d.Supersedes] = true
		}
		counts := map[string]*[numFields]uint16{}
		for f := range numFields {
			terms := Terms(d.text[f])
			ix.lengths[i][f] = uint16(min(len(terms), 65535))
			total[f] += float64(len(terms))
			for _, t := range terms {
				c := counts[t]
				if c == nil {
					c = &[numFields]uint16{}
					counts[t] = c
				}
				if c[f] < 65535 {
					c[f]++
				}
			}
		}
		for t, c := range counts {
			ix.postings[t] = append(ix.postings[t], posting{doc: int32(i), tf: *c})
		}
	}
	for f := range numFields {
		if len(docs) > 0 {
			ix.avgLen[f] = max(total[f]/float64(len(docs)), 1)
		}
	}
	ix.terms = make([]string, 0, len(ix.postings))
	for t := range ix.postings {
		ix.terms = append(ix.terms, t)
	}
	sort.Strings(ix.terms)
	return ix
}

// Len is the number of documents indexed.
func (ix *Index) Len() int { return len(ix.docs) }

// withPrefix lists the indexed terms that start with prefix, at most limit.
func (ix *Index) withPrefix(prefix string, limit int) []string {
	i := sort.SearchStrings(ix.terms, prefix)
	var out []string
	for ; i < len(ix.terms) && strings.HasPrefix(ix.terms[i], prefix) && len(out) < limit; i++ {
		out = append(out, ix.terms[i])
	}
	return out
}
