package review

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/session"
	"github.com/planq-dev/planq/team"
)

// TestPageListsGlobalsDisputed: a learning that lands disputed on global is
// listed as disputed, by the API and the page, though the agent's own copy
// of it, on its branch, is as the agent wrote it (issue 25, item 8).
func TestPageListsGlobalsDisputed(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	a, err := f.store.Agent("auth")
	if err != nil {
		t.Fatal(err)
	}
	var second *changelog.Record
	for _, text := range []string{"the timeout is 5s", "the timeout is 9s"} {
		rec, err := changelog.NewLearning(changelog.LearningInput{Text: text, Type: changelog.TypeReference, Domain: "net", Subject: "timeout"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.Write(ctx, rec, agent.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := team.Promote(ctx, f.store, a, team.PromoteOptions{}); err != nil {
			t.Fatal(err)
		}
		second = rec
	}
	p := decode[session.Promotion](t, f.request(t, "GET", "/api/learnings/demo/promotion", "", nil))
	if len(p.Disputed) != 1 || p.Disputed[0].ID != second.ID {
		t.Fatalf("disputed: %+v, want %s", p.Disputed, second.ID)
	}
	res := f.request(t, "GET", "/", "", nil)
	page, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK || strings.Contains(string(page), "Nothing is disputed") || !strings.Contains(string(page), second.ID) {
		t.Errorf("the page (%d) does not list %s as disputed", res.StatusCode, second.ID)
	}
}
