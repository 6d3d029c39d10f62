package readmodel

import (
	"context"
	"testing"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testrecords"
	"github.com/planq-dev/planq/project"
)

func TestHoldingsAnswerPromoteFromRows(t *testing.T) {
	at := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	learning := func(agent, text string, minutes int, edit func(*changelog.Record)) *changelog.Record {
		t.Helper()
		r, err := changelog.NewLearning(changelog.LearningInput{Text: text, Type: changelog.TypePattern, Domain: "auth"})
		if err != nil {
			t.Fatal(err)
		}
		r.Agent, r.Timestamp = agent, at.Add(time.Duration(minutes)*time.Minute)
		if edit != nil {
			edit(r)
		}
		r.ID = changelog.NewID(r.Agent, r.Kind, r.Body+r.Supersedes, r.Timestamp)
		return r
	}
	first := learning("a", "Refresh on 401", 0, nil)
	// A newer version of it, which cites a duplicate another agent wrote.
	second := learning("a", "Refresh on 401", 5, func(r *changelog.Record) {
		r.Supersedes = first.ID
		r.Sources = []changelog.Source{{ID: first.ID, Agent: "a"}, {ID: "pq-0d0b1e0001", Agent: "b"}}
	})
	other := learning("a", "Tokens last 15 minutes", 10, nil)
	repo := testrecords.RepoWith(t, testrecords.Rendered(t, []*changelog.Record{first, second, other}))
	rd := Open(repo, t.TempDir())
	globalTip, err := repo.Tip(project.GlobalBranch)
	if err != nil {
		t.Fatal(err)
	}
	h, err := rd.Holdings(globalTip)
	if err != nil || len(h.problems) > 0 {
		t.Fatalf("Holdings: %v %v", err, h.problems)
	}
	for id, want := range map[string]bool{first.ID: true, second.ID: true, "pq-0d0b1e0001": true, "pq-0000000404": false} {
		if got := h.Holds(id); got != want {
			t.Errorf("Holds(%s) = %v, want %v", id, got, want)
		}
	}
	same := learning("c", "refresh on 401.", 20, nil) // the same subject, written otherwise
	got, err := h.About(same)
	if err != nil || got == nil || got.ID != second.ID {
		t.Fatalf("About(same subject) = %v, %v; want the current version %s", got, err, second.ID)
	}
	if got, err := h.About(learning("c", "Retry with backoff", 20, nil)); err != nil || got != nil {
		t.Errorf("About(a new subject) = %v, %v; want none", got, err)
	}

	// An agent branch holding two of global's records and one of its own:
	// only its own is unheld.
	mine := learning("c", "Rotate keys monthly", 30, nil)
	files := testrecords.Rendered(t, []*changelog.Record{first, other, mine})
	if _, err := repo.CreateBranch(context.Background(), "agent-c", project.GlobalBranch, files, "c's records"); err != nil {
		t.Fatal(err)
	}
	agentTip, err := repo.Tip("agent-c")
	if err != nil {
		t.Fatal(err)
	}
	set, err := rd.Unheld(agentTip, h)
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Records) != 1 || set.Records[0].ID != mine.ID || set.Records[0].Body != mine.Body {
		t.Errorf("Unheld = %v, want only %s", set.Records, mine.ID)
	}
}
