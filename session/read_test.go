package session_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/internal/testkit/testproject"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
)

// TestSearchAndGetAreOneUseCase: the service's Search scopes the branch
// to the reader's, searches, and notes the reader's uses (never when
// pinned to a moment, never for global); its Get finds a record by ID or by
// path with lines, notes the use, and says what superseded it.
func TestSearchAndGetAreOneUseCase(t *testing.T) {
	ctx := context.Background()
	p := testproject.New(t, nil)
	a := p.Agent
	old := write(t, a, changelog.LearningInput{Text: "Tokens expire after 15 minutes", Type: changelog.TypePattern, Domain: "auth"})
	newer := write(t, a, changelog.LearningInput{Text: "Tokens expire after 10 minutes", Type: changelog.TypePattern, Domain: "auth", Supersedes: old.ID})
	journal := p.Store.Project.UsesJournal(a.Name)

	svc := serviceAt(t, p.Code)
	q := session.SearchInput{Phrasings: []string{"token expiry"}, Domains: []string{"auth"}, Scope: session.ScopeAgent}
	found, err := svc.Search(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if len(found.Hits) != 1 || found.Hits[0].ID != newer.ID || found.Unnoted != nil || found.Across != nil {
		t.Fatalf("search found %+v (uses: %v), want the current version alone", found.Hits, found.Unnoted)
	}
	if data, err := os.ReadFile(journal); err != nil || !strings.Contains(string(data), newer.ID) {
		t.Fatalf("the hit's use was not noted: %q, %v", data, err)
	}
	if err := os.Remove(journal); err != nil {
		t.Fatal(err)
	}
	lead := serviceAt(t, leadCheckout(t, p))
	if _, err := lead.Search(ctx, session.SearchInput{Phrasings: q.Phrasings}); err != nil {
		t.Fatal(err)
	}
	pinned, err := serviceAt(t, p.Code).Search(ctx, session.SearchInput{Phrasings: q.Phrasings, AsOf: time.Now().UTC().Format("2006-01-02")})
	if err != nil || pinned.AsOf.Time.IsZero() || len(pinned.Hits) != 1 {
		t.Fatalf("a search as of today: %+v, %v", pinned, err)
	}
	if _, err := os.Stat(journal); !os.IsNotExist(err) {
		t.Fatalf("a search by global, or of a past moment, noted a use (%v)", err)
	}

	// Who reads is asked only when the scope needs it, and its error is the search's.
	if _, err := lead.Search(ctx, q); !planqerr.Is(err, planqerr.NotFound) {
		t.Fatalf("scope agent with no agent: %v, want not found", err)
	}
	if _, err := lead.Search(ctx, session.SearchInput{Phrasings: q.Phrasings, Scope: session.ScopeGlobal}); err != nil {
		t.Fatalf("scope global needs no agent: %v", err)
	}
	if _, err := svc.Search(ctx, session.SearchInput{Phrasings: q.Phrasings, Agent: "nobody"}); !planqerr.Is(err, planqerr.NotFound) {
		t.Fatalf("an agent named that is none: %v, want not found", err)
	}
	bad := q
	bad.Domains = []string{"../auth"}
	if _, err := svc.Search(ctx, bad); !planqerr.Is(err, planqerr.Invalid) {
		t.Fatalf("a domain no record can have: %v, want invalid", err)
	}
	if _, err := svc.Search(ctx, session.SearchInput{Phrasings: q.Phrasings, Scope: "team"}); !planqerr.Is(err, planqerr.Invalid) {
		t.Fatalf("a scope that is none: %v, want invalid", err)
	}

	got, err := svc.Get(ctx, session.GetInput{Ref: old.ID})
	if err != nil {
		t.Fatal(err)
	}
	if got.Path != old.Path || got.SupersededBy != newer.ID || got.Retracted || got.Newer != newer.Path {
		t.Fatalf("get %s: %+v", old.ID, got)
	}
	if data, err := os.ReadFile(journal); err != nil || !strings.Contains(string(data), old.ID) {
		t.Fatalf("the get's use was not noted: %q, %v", data, err)
	}
	got, err = lead.Get(ctx, session.GetInput{Ref: newer.Path + ":2-3", To: 4})
	if err != nil {
		t.Fatal(err)
	}
	if got.From != 2 || got.To != 4 || got.SupersededBy != "" {
		t.Fatalf("get %s:2-3 to 4: %+v", newer.Path, got)
	}
}

// serviceAt is the service for dir, closed when the test ends.
func serviceAt(t *testing.T, dir string) *session.Project {
	t.Helper()
	svc := session.Open(dir)
	t.Cleanup(func() { _ = svc.Close() })
	return svc
}

// leadCheckout is a second checkout of p's code with no agent mounted in
// it: a lead's, whose reads are the team's.
func leadCheckout(t *testing.T, p testproject.Project) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "lead")
	testgit.Run(t, p.Code, "worktree", "add", "-q", dir)
	config, err := os.ReadFile(filepath.Join(p.Code, ".planq", "config"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".planq"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".planq", "config"), config, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
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

// TestQueryIsOneUseCase: the service's Query reads the learnings of the
// domains named, or of all, rendered; a query that names none and asks for
// none reads no learning and says so, with the domains there are, for the
// front end to offer; a domain no record can have, and a format there is
// none of, are refused.
func TestQueryIsOneUseCase(t *testing.T) {
	ctx := context.Background()
	p := testproject.New(t, nil)
	a := p.Agent
	write(t, a, changelog.LearningInput{Text: "Tokens expire after 15 minutes", Type: changelog.TypePattern, Domain: "auth"})
	write(t, a, changelog.LearningInput{Text: "CI caches modules", Type: changelog.TypeConvention, Domain: "ci"})
	svc := serviceAt(t, p.Code)

	ex, err := svc.Query(ctx, session.QueryInput{Domains: []string{"ci"}})
	if err != nil || ex.Unnamed || len(ex.Learnings) != 1 || ex.Learnings[0].Domain != "ci" || !strings.Contains(ex.Text, "CI caches modules") {
		t.Fatalf("query ci: %+v, %v", ex, err)
	}
	ex, err = svc.Query(ctx, session.QueryInput{})
	if err != nil || !ex.Unnamed || ex.Learnings != nil || strings.Join(ex.Domains, ",") != "auth,ci" {
		t.Fatalf("a query naming no domain: %+v, %v; want unnamed, offering auth and ci", ex, err)
	}
	if ex, err = svc.Query(ctx, session.QueryInput{All: true, Format: "json"}); err != nil || len(ex.Learnings) != 2 || !strings.HasPrefix(ex.Text, "{") {
		t.Fatalf("query all as JSON: %+v, %v", ex, err)
	}
	if _, err := svc.Query(ctx, session.QueryInput{Domains: []string{"a b"}}); !planqerr.Is(err, planqerr.Invalid) {
		t.Fatalf("a domain no record can have: %v, want invalid", err)
	}
	if _, err := svc.Query(ctx, session.QueryInput{All: true, Format: "html"}); err == nil {
		t.Fatal("a format there is none of was taken")
	}
}
