package readmodel

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/embed"
	"github.com/planq-dev/planq/internal/testkit/testmodel"
	"github.com/planq-dev/planq/internal/testkit/testrecords"
)

// synonyms is a table in which the words of each group share one vector,
// and the groups are orthogonal: a text finds, by its meaning, the texts
// that say the same in other words of its groups.
func synonyms(t *testing.T, groups ...string) *embed.Table {
	t.Helper()
	tab, err := testmodel.Synonyms(groups...)
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

// The vector channel honours every filter the words' channel does: kind,
// domain, type, writer, age, current versions only (unless all are asked
// for), retracted records never. The question shares no word with the
// records: what it finds, it finds by meaning alone.
func TestVectorChannelKeepsTheFilters(t *testing.T) {
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	var recs []*changelog.Record
	add := func(r *changelog.Record, err error, agent string, days int) *changelog.Record {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		r.Agent, r.Timestamp = agent, at.AddDate(0, 0, days).Add(time.Duration(len(recs))*time.Minute)
		r.ID = changelog.NewID(r.Agent, r.Kind, r.Body+r.Supersedes, r.Timestamp)
		recs = append(recs, r)
		return r
	}
	learning := func(text string, typ changelog.Type, domain, agent string, days int) *changelog.Record {
		r, err := changelog.NewLearning(changelog.LearningInput{Text: text, Type: typ, Domain: domain, Resolution: "held"})
		return add(r, err, agent, days)
	}
	kept := learning("the mutex guards the queue", changelog.TypeConvention, "db", "a", 10)
	first := learning("the mutex guards the cache", changelog.TypeConvention, "db", "a", 10)
	second, err := changelog.NewLearning(changelog.LearningInput{Text: "the mutex guards the cache again", Type: changelog.TypeConvention,
		Domain: "db", Supersedes: first.ID})
	second = add(second, err, "a", 11)
	wrong := learning("the mutex guards nothing", changelog.TypeConvention, "db", "a", 10)
	tomb, err := changelog.NewTombstone(wrong, "")
	add(tomb, err, "a", 12)
	byB := learning("the mutex guards the pool", changelog.TypeConvention, "db", "b", 10)
	old := learning("the mutex guards the log", changelog.TypeConvention, "db", "a", 0)
	ci := learning("the mutex guards the runner", changelog.TypeConvention, "ci", "a", 10)
	failure := learning("the mutex guards the socket", changelog.TypeFailure, "db", "a", 10)
	d, err := changelog.NewDecision(changelog.DecisionInput{Decision: "a mutex guards the index", Rationale: "speed"})
	decision := add(d, err, "a", 10)
	rd := Open(testrecords.RepoWith(t, testrecords.Rendered(t, recs)), t.TempDir())
	tab := synonyms(t, "mutex latch lock", "guards", "queue cache pool log runner socket index nothing")
	rd.UseModel(func(context.Context) (embed.Model, error) { return tab, nil })

	everything := []*changelog.Record{kept, second, byB, old, ci, failure, decision}
	for _, c := range []struct {
		name   string
		filter func(*Query)
		want   []*changelog.Record
	}{
		{"none", func(*Query) {}, everything},
		{"kind", func(q *Query) { q.Kinds = []changelog.Kind{changelog.KindLearning} }, except(everything, decision)},
		{"domain", func(q *Query) { q.Domains = []string{"db"} }, except(everything, ci, decision)},
		{"type", func(q *Query) { q.Types = []changelog.Type{changelog.TypeConvention} }, except(everything, failure, decision)},
		{"agent", func(q *Query) { q.Agents = []string{"a"} }, except(everything, byB)},
		{"since", func(q *Query) { q.Since = at.AddDate(0, 0, 5) }, except(everything, old)},
		{"all versions", func(q *Query) { q.AllVersions = true }, append(everything, first)},
	} {
		q := Query{Text: "latch", Limit: MaxSearchLimit}
		c.filter(&q)
		res, err := rd.Search(q)
		if err != nil {
			t.Fatal(err)
		}
		if res.Vector.Model == "" {
			t.Fatalf("%s: the vector channel is off: %+v", c.name, res.Vector)
		}
		var got, want []string
		for _, h := range res.Hits {
			got = append(got, h.ID)
		}
		for _, r := range c.want {
			want = append(want, r.ID)
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) || res.Total != len(want) {
			t.Errorf("%s: found %v of %d, want %v", c.name, got, res.Total, want)
		}
	}
}

func except(recs []*changelog.Record, drop ...*changelog.Record) []*changelog.Record {
	var out []*changelog.Record
	for _, r := range recs {
		if !slices.Contains(drop, r) {
			out = append(out, r)
		}
	}
	return out
}

// down is a model whose embeddings fail, as an endpoint that is down: it
// counts the calls.
type down struct {
	*embed.Table
	calls *int
}

func (m down) Embed(context.Context, []string) ([][]float32, error) {
	*m.calls++
	return nil, errors.New("connection refused")
}

// A model that fails to embed is said once, and not waited on again at the
// next searches: they match words at once.
func TestFailingModelIsNotAskedAtEverySearch(t *testing.T) {
	rd := Open(testrecords.RepoWith(t, testrecords.Rendered(t, testrecords.Samples(t))), t.TempDir())
	calls := 0
	m := down{Table: synonyms(t, "hangs stuck"), calls: &calls}
	rd.UseModel(func(context.Context) (embed.Model, error) { return m, nil })
	for i := range 3 {
		res, err := rd.Search(Query{Text: "go test hangs"})
		if err != nil || len(res.Hits) == 0 {
			t.Fatalf("search %d: %+v, err %v", i, res, err)
		}
		if !strings.Contains(res.Vector.Off, "connection refused") {
			t.Errorf("search %d: vector channel %+v, want it off for the failure", i, res.Vector)
		}
	}
	if calls != 1 {
		t.Errorf("the failing model was asked %d times in three searches, want once", calls)
	}
	if w := rd.VectorWarning(); w == nil || rd.VectorWarning() != nil {
		t.Errorf("warning %v: want the failure told once", w)
	}
}
