package search

import (
	"strings"

	"github.com/planq-dev/planq/changelog"
)

// field is a part of a record that counts with its own weight.
type field int

const (
	// fieldStrong is what a record is: its title, subject, decision, name.
	fieldStrong field = iota
	// fieldMeta is where it belongs: its domain, the files it concerns.
	fieldMeta
	// fieldBody is the rest of what it says.
	fieldBody
	numFields
)

// weights are the fields' weights in BM25F: a word in a title says more
// about the record than the same word in its body.
var weights = [numFields]float64{fieldStrong: 3, fieldMeta: 2, fieldBody: 1}

// BM25's parameters. k1 is the usual 1.2. b, how much a long record's
// words count for less, is 0.5 rather than the usual 0.75: records run from
// a one-line log entry to a guide of many paragraphs, and a guide that says
// the thing among other things must not lose to a one-liner that only
// shares a word. The evaluation chose it (go run ./scripts/searcheval):
// against 0.75 it finds more at every depth, at 5,000 records on two seeds
// and at 20,000.
const (
	k1 = 1.2
	b  = 0.5
)

// Doc is one record as the index sees it: its text by field, and the facets
// that filters and the order of equal hits need.
type Doc struct {
	Domain         string
	Type           changelog.Type
	Classification changelog.Classification
	text           [numFields]string
}

// DocOf is record r as a document.
func DocOf(r *changelog.Record) Doc {
	d := Doc{Domain: r.Domain, Type: r.Type, Classification: r.Classification}
	strong := []string{r.Title(), r.Subject, r.Decision, r.Name}
	// What planq itself puts in a record, its kind and type and the branch
	// and commit it was written on, is no word of the record's: "learning",
	// "reference" or "main" in every learning would make them words that
	// score nothing where a record's own text says them. They are facets,
	// which filters read (Filters), never terms.
	meta := []string{r.Domain}
	if r.Evidence != nil {
		meta = append(meta, r.Evidence.Files...)
	}
	body := r.Body
	if title := r.Title(); title != "" {
		body = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(body), title))
	}
	bodyParts := append([]string{body, r.Rationale, r.Resolution}, r.Alternatives...)
	if len(r.Extra) > 0 {
		bodyParts = appendExtra(bodyParts, r)
	}
	d.text = [numFields]string{
		fieldStrong: strings.Join(strong, "\n"),
		fieldMeta:   strings.Join(meta, "\n"),
		fieldBody:   strings.Join(bodyParts, "\n"),
	}
	return d
}

// appendExtra adds the text of r's extra fields (changelog.Spec.Extra), in
// its row's order: what a kind declares in the table is searched with no
// code here.
func appendExtra(parts []string, r *changelog.Record) []string {
	spec := r.Kind.Spec()
	if spec == nil {
		return parts
	}
	for _, f := range spec.Extra {
		if s := r.ExtraText(f.Key); s != "" {
			parts = append(parts, s)
		}
		parts = append(parts, r.ExtraList(f.Key)...)
	}
	return parts
}
