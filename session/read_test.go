package session_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testproject"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/search"
	"github.com/planq-dev/planq/session"
)

// TestSearchAndGetAreOneUseCase: session.Search scopes the branch to the
// reader's, searches, and notes the reader's uses (never when pinned to a
// moment, never for global); session.Get finds a record by ID or by path
// with lines, notes the use, and says what superseded it.
func TestSearchAndGetAreOneUseCase(t *testing.T) {
	ctx := context.Background()
	p := testproject.New(t, nil)
	h, a := p.Store.Handle, p.Agent
	old := write(t, a, changelog.LearningInput{Text: "Tokens expire after 15 minutes", Type: changelog.TypePattern, Domain: "auth"})
	newer := write(t, a, changelog.LearningInput{Text: "Tokens expire after 10 minutes", Type: changelog.TypePattern, Domain: "auth", Supersedes: old.ID})
	journal := p.Store.Project.UsesJournal(a.Name)

	me := func() (readmodel.Ref, error) { return a.Ref, nil }
	q := session.SearchRequest{Query: readmodel.Query{Text: "token expiry", Filters: search.Filters{Domains: []string{"auth"}}}, Scope: "agent"}
	found, err := session.Search(ctx, h, me, q)
	if err != nil {
		t.Fatal(err)
	}
	if len(found.Hits) != 1 || found.Hits[0].ID != newer.ID || found.Unnoted != nil {
		t.Fatalf("search found %+v (uses: %v), want the current version alone", found.Hits, found.Unnoted)
	}
	if data, err := os.ReadFile(journal); err != nil || !strings.Contains(string(data), newer.ID) {
		t.Fatalf("the hit's use was not noted: %q, %v", data, err)
	}
	if err := os.Remove(journal); err != nil {
		t.Fatal(err)
	}
	global := func() (readmodel.Ref, error) { return h.Global(), nil }
	if _, err := session.Search(ctx, h, global, session.SearchRequest{Query: q.Query}); err != nil {
		t.Fatal(err)
	}
	past, err := readmodel.OpenHandle(ctx, p.Store.Project)
	if err != nil {
		t.Fatal(err)
	}
	defer past.Close()
	pinned, err := session.Search(ctx, past, me, session.SearchRequest{Query: q.Query, AsOf: time.Now().UTC().Format("2006-01-02")})
	if err != nil || pinned.AsOf.Time.IsZero() || len(pinned.Hits) != 1 {
		t.Fatalf("a search as of today: %+v, %v", pinned, err)
	}
	if _, err := os.Stat(journal); !os.IsNotExist(err) {
		t.Fatalf("a search by global, or of a past moment, noted a use (%v)", err)
	}

	// Who reads is asked only when the scope needs it, and its error is the search's.
	nobody := func() (readmodel.Ref, error) {
		return readmodel.Ref{}, planqerr.New(planqerr.NotFound, "here", "no agent")
	}
	if _, err := session.Search(ctx, h, nobody, q); !planqerr.Is(err, planqerr.NotFound) {
		t.Fatalf("scope agent with no agent: %v, want not found", err)
	}
	if _, err := session.Search(ctx, h, nobody, session.SearchRequest{Query: q.Query, Scope: "global"}); err != nil {
		t.Fatalf("scope global needs no agent: %v", err)
	}
	bad := q
	bad.Query.Domains = []string{"../auth"}
	if _, err := session.Search(ctx, h, me, bad); !planqerr.Is(err, planqerr.Invalid) {
		t.Fatalf("a domain no record can have: %v, want invalid", err)
	}

	got, err := session.Get(ctx, h, a.Ref, session.GetRequest{Ref: old.ID})
	if err != nil {
		t.Fatal(err)
	}
	if got.Path != old.Path || got.SupersededBy != newer.ID || got.Retracted || got.Newer != newer.Path {
		t.Fatalf("get %s: %+v", old.ID, got)
	}
	if data, err := os.ReadFile(journal); err != nil || !strings.Contains(string(data), old.ID) {
		t.Fatalf("the get's use was not noted: %q, %v", data, err)
	}
	got, err = session.Get(ctx, h, h.Global(), session.GetRequest{Ref: newer.Path + ":2-3", To: 4})
	if err != nil {
		t.Fatal(err)
	}
	if got.From != 2 || got.To != 4 || got.SupersededBy != "" {
		t.Fatalf("get %s:2-3 to 4: %+v", newer.Path, got)
	}
}

func write(t *testing.T, a *agent.Agent, in changelog.LearningInput) agent.Written {
	t.Helper()
	r, err := changelog.NewLearning(in)
	if err != nil {
		t.Fatal(err)
	}
	w, err := a.Learn(context.Background(), r, agent.LearnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestQueryIsOneUseCase: session.Query reads the learnings of the domains
// named, or of all; a request that names none and asks for none reads no
// learning and says so, with the domains there are, for the front end to
// offer; a domain no record can have is refused.
func TestQueryIsOneUseCase(t *testing.T) {
	ctx := context.Background()
	p := testproject.New(t, nil)
	h, a := p.Store.Handle, p.Agent
	write(t, a, changelog.LearningInput{Text: "Tokens expire after 15 minutes", Type: changelog.TypePattern, Domain: "auth"})
	write(t, a, changelog.LearningInput{Text: "CI caches modules", Type: changelog.TypeConvention, Domain: "ci"})

	ex, err := session.Query(ctx, h, session.QueryRequest{Filter: readmodel.LearningFilter{Domains: []string{"ci"}}})
	if err != nil || ex.Unnamed || len(ex.Learnings) != 1 || ex.Learnings[0].Domain != "ci" {
		t.Fatalf("query ci: %+v, %v", ex, err)
	}
	ex, err = session.Query(ctx, h, session.QueryRequest{})
	if err != nil || !ex.Unnamed || ex.Learnings != nil || strings.Join(ex.Domains, ",") != "auth,ci" {
		t.Fatalf("a query naming no domain: %+v, %v; want unnamed, offering auth and ci", ex, err)
	}
	if ex, err = session.Query(ctx, h, session.QueryRequest{All: true}); err != nil || len(ex.Learnings) != 2 {
		t.Fatalf("query all: %+v, %v", ex, err)
	}
	if _, err := session.Query(ctx, h, session.QueryRequest{Filter: readmodel.LearningFilter{Domains: []string{"a b"}}}); !planqerr.Is(err, planqerr.Invalid) {
		t.Fatalf("a domain no record can have: %v, want invalid", err)
	}
}
