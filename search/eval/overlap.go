package eval

import (
	"maps"
	"slices"
	"strings"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/search"
)

// SharedTerms are the index terms question shares with record r, sorted:
// what search.Terms makes of the question (stems, identifiers whole and in
// parts, stop words dropped) met in anything r says, its fields included.
// None means no lexical channel can find r from the question's words: it
// takes knowing what the words mean.
func SharedTerms(question string, r *changelog.Record) []string {
	said := map[string]bool{}
	for _, t := range search.Terms(strings.Join(recordTexts(r), "\n")) {
		said[t] = true
	}
	shared := map[string]bool{}
	for _, t := range search.Terms(question) {
		if said[t] {
			shared[t] = true
		}
	}
	return slices.Sorted(maps.Keys(shared))
}

// recordTexts is everything r says that a reader or an index could match
// a question against: its text and every field beside it, the structured
// ones (kind, type, domain, files, branch, tags) too, so that a question
// marked as sharing no word with its answer shares none with any way of
// indexing it.
func recordTexts(r *changelog.Record) []string {
	texts := []string{r.Body, r.Subject, r.Decision, r.Name, r.Rationale, r.Resolution,
		r.Domain, string(r.Type), string(r.Kind), string(r.Status), r.To}
	texts = append(texts, r.Alternatives...)
	texts = append(texts, r.Tags...)
	if r.Evidence != nil {
		texts = append(texts, r.Evidence.Branch, r.Evidence.Issue)
		texts = append(texts, r.Evidence.Files...)
	}
	if spec := r.Kind.Spec(); spec != nil {
		for _, f := range spec.Extra {
			texts = append(texts, r.ExtraText(f.Key))
			texts = append(texts, r.ExtraList(f.Key)...)
		}
	}
	return texts
}
