package readmodel

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/embed"
	"github.com/planq-dev/planq/internal/testkit/testrecords"
)

// synonyms is a table in which the words of each group share one vector,
// and the groups are orthogonal: a text finds, by its meaning, the texts
// that say the same in other words of its groups.
func synonyms(t *testing.T, groups ...string) *embed.Table {
	t.Helper()
	var words []string
	var weights []float32
	var vecs [][]float32
	for g, group := range groups {
		for _, w := range strings.Fields(group) {
			v := make([]float32, len(groups))
			v[g] = 1
			words, weights, vecs = append(words, w), append(weights, 1), append(vecs, v)
		}
	}
	tab, err := embed.NewTable(embed.Info{Name: "synonyms"}, words, weights, vecs)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// A reader opens its model at its first search, once, and no view that
// does not search opens it: a command that lists or counts pays nothing
// for a model.
func TestOnlySearchesOpenTheModel(t *testing.T) {
	recs := testrecords.Samples(t)
	rd := Open(testrecords.RepoWith(t, testrecords.Rendered(t, recs)), t.TempDir())
	loads := 0
	tab := synonyms(t, "hangs stuck freezes", "jwt token")
	rd.UseModel(func(context.Context) (embed.Model, error) { loads++; return tab, nil })

	if _, err := rd.All(); err != nil {
		t.Fatal(err)
	}
	if _, err := rd.Branch("global", changelog.KindLearning); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := rd.Learnings(LearningFilter{}); err != nil {
		t.Fatal(err)
	}
	if _, err := rd.PathOf(recs[1].ID); err != nil {
		t.Fatal(err)
	}
	if _, err := rd.History(recs[1].ID, false); err != nil {
		t.Fatal(err)
	}
	if loads != 0 {
		t.Fatalf("views that do not search opened the model %d times", loads)
	}

	res, err := rd.Search(Query{Text: "go test freezes"})
	if err != nil {
		t.Fatal(err)
	}
	if loads != 1 || res.Vector.Model != tab.ID() || res.Vector.Off != "" {
		t.Fatalf("after a search: %d loads, vector channel %+v; want one load, and the channel on by %s", loads, res.Vector, tab.ID())
	}
	if _, err := rd.Relevant([]string{"JWT validation"}, 3); err != nil {
		t.Fatal(err)
	}
	if loads != 1 {
		t.Errorf("a second search opened the model again: %d loads", loads)
	}
}

// A model that does not open leaves search to words: it answers as a
// reader without a model does, and says why, as a warning told once
// (VectorWarning) when a model was wanted, as a status alone when there is
// none to have.
func TestSearchWithoutItsModel(t *testing.T) {
	repo := testrecords.RepoWith(t, testrecords.Rendered(t, testrecords.Samples(t)))
	want, err := Open(repo, t.TempDir()).Search(Query{Text: "go test hangs"})
	if err != nil || len(want.Hits) == 0 {
		t.Fatalf("search without a model: %+v, err %v", want, err)
	}
	for _, c := range []struct {
		name string
		err  error
		warn bool
	}{
		{"no default model", embed.ErrNoDefaultModel, false},
		{"unreadable", errors.New("model.safetensors: truncated"), true},
		{"none configured", nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			rd := Open(repo, t.TempDir())
			loads := 0
			rd.UseModel(func(context.Context) (embed.Model, error) { loads++; return nil, c.err })
			for range 2 {
				got, err := rd.Search(Query{Text: "go test hangs"})
				if err != nil {
					t.Fatal(err)
				}
				if len(got.Hits) != len(want.Hits) || got.Hits[0].ID != want.Hits[0].ID || got.Hits[0].Score != want.Hits[0].Score {
					t.Fatalf("hits %+v, want the words' %+v", got.Hits, want.Hits)
				}
				if got.Vector.Model != "" || got.Vector.Off == "" || (got.Vector.Warn != nil) != c.warn {
					t.Fatalf("vector channel %+v: want it off, saying why, a warning %v", got.Vector, c.warn)
				}
				if c.err != nil && !strings.Contains(got.Vector.Off, c.err.Error()) {
					t.Errorf("vector channel off %q: want the reason, %q", got.Vector.Off, c.err)
				}
			}
			if loads != 1 {
				t.Errorf("the model was asked for %d times, want once", loads)
			}
			first, second := rd.VectorWarning(), rd.VectorWarning()
			if (first != nil) != c.warn || second != nil {
				t.Errorf("warnings %v, then %v: want the failure told once (%v)", first, second, c.warn)
			}
		})
	}
}
