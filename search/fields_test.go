package search

import (
	"slices"
	"strings"
	"testing"

	"github.com/planq-dev/planq/changelog"
)

// What planq puts in every record (its kind, its type, the branch it was
// written on) is no word of the record's: a corpus where every record is a
// reference learning written on main ranks "main database" by the one
// record whose text says "the main database", and "main" is as rare as the
// texts that use it make it.
func TestStructuredFieldsAreNotText(t *testing.T) {
	texts := []string{
		0: "Orders moved to the new cluster\nThe orders table lives in the main database now; reports read the replica.",
		1: "Database backups\nDatabase backups run nightly and are kept for thirty days.",
		2: "Database migrations\nDatabase migrations run before every deploy, never after.",
		3: "Protected branch\nThe main branch is protected: merge through a pull request.",
		4: "We learned that the load balancer drops idle connections after sixty seconds.",
		5: "Refer to the style guide before naming a package.",
	}
	for i := range 14 { // records that share none of the query's words
		texts = append(texts, "Queue worker "+strings.Repeat("x", i+1)+"\nThe queue worker retries with backoff, at most five times.")
	}
	var docs []Indexed
	for _, text := range texts {
		r := &changelog.Record{Kind: changelog.KindLearning, Type: changelog.TypeReference, Domain: "infra",
			Classification: changelog.Tactical, Evidence: &changelog.Evidence{Branch: "main", Commit: "0123abc"}, Body: text}
		docs = append(docs, DocOf(r).Index())
	}
	data := Encode(docs)
	parts := openParts(t, data)

	// A word's document frequency is the texts' that use it.
	r := parts[0].Index.reading()
	for word, want := range map[string]int{"main": 2, "learned": 1, "reference": 1, "learning": 1} {
		got := 0
		if e, ok, err := r.lookup(term(word)); err != nil {
			t.Fatal(err)
		} else if ok {
			got = int(e.df)
		}
		if got != want {
			t.Errorf("%q (term %q) is in %d documents of the index; the records' texts use it in %d", word, term(word), got, want)
		}
	}

	search := func(q string) Result {
		t.Helper()
		res, err := Search(parts, Query{Phrasings: []string{q}, Limit: 5})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	both, database := search("main database"), search("database")
	if len(both.Hits) == 0 || both.Hits[0].Doc != 0 {
		t.Fatalf(`"main database" ranks %v first; want record 0, whose text says "the main database"`, both.Hits)
	}
	// "main" counts for as much as a word two records of twenty use: the
	// record scores well above what "database" alone gives it.
	i := slices.IndexFunc(database.Hits, func(h Hit) bool { return h.Doc == 0 })
	if i < 0 {
		t.Fatalf(`"database" does not find record 0: %v`, database.Hits)
	}
	if got, alone := both.Hits[0].Score, database.Hits[i].Score; got < 1.5*alone {
		t.Errorf(`record 0 scores %.3f for "main database" and %.3f for "database": "main" adds almost nothing`, got, alone)
	}
	// The structured fields still filter: a type the records do not have
	// finds nothing.
	res, err := Search(parts, Query{Phrasings: []string{"main database"}, Filters: Filters{Types: []changelog.Type{changelog.TypeFailure}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 0 {
		t.Errorf("a search for failures finds %v among reference learnings", res.Hits)
	}
}
