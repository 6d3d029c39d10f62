package team_test

import (
	"context"
	"testing"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testproject"
	"github.com/planq-dev/planq/team"
)

func failure(t *testing.T, text, resolution string) *changelog.Record {
	t.Helper()
	r, err := changelog.NewLearning(changelog.LearningInput{Text: text, Type: changelog.TypeFailure, Domain: "agents", Resolution: resolution})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestPromoteDisputesOnlyWhatSharesASubject: two reports an automated
// recorder wrote, each a list of fields whose first is "Agent:
// coordinator", are two events, not two claims about one subject: neither
// is disputed, whether they arrive in one promote or global has one of
// them already. Two failures titled alike that say otherwise still are.
func TestPromoteDisputesOnlyWhatSharesASubject(t *testing.T) {
	store, a := testproject.Auth(t)
	ctx := context.Background()
	report := func(reason string) *changelog.Record {
		return failure(t, "Agent: coordinator\nCapability: coordinator\nFailure reason: "+reason+"\nDetected by: Tier 0 (process death)", "restart it")
	}
	write(t, a, report("Process terminated"))
	write(t, a, report("tmux dead but sessions.json says working"))
	res, err := team.Promote(ctx, store, a, team.PromoteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d := res.Disputed(); len(d) != 0 {
		t.Fatalf("two reports of one agent disputed at one promote: %+v", d)
	}
	write(t, a, report("out of memory"))
	if res, err = team.Promote(ctx, store, a, team.PromoteOptions{}); err != nil {
		t.Fatal(err)
	}
	if d := res.Disputed(); len(d) != 0 || len(res.Candidates) != 1 || res.Candidates[0].Action != team.ActionAdd {
		t.Fatalf("a third report, global holding two: %+v, want it added", res.Candidates)
	}
	// The same report twice is still one report.
	write(t, a, report("out of memory"))
	if res, err = team.Promote(ctx, store, a, team.PromoteOptions{}); err != nil {
		t.Fatal(err)
	}
	if len(res.Candidates) != 1 || res.Candidates[0].Action != team.ActionDuplicate {
		t.Fatalf("a report global has: %+v, want a duplicate", res.Candidates)
	}

	// A title that names a subject: a different body is a dispute.
	write(t, a, failure(t, "Flaky login test\nThe session cookie outlives the test.", "clear cookies between tests"))
	write(t, a, failure(t, "Flaky login test\nThe test server starts late.", "wait for the port"))
	if res, err = team.Promote(ctx, store, a, team.PromoteOptions{}); err != nil {
		t.Fatal(err)
	}
	if d := res.Disputed(); len(d) != 1 {
		t.Fatalf("two failures of one subject that say otherwise: %+v, want one disputed", res.Candidates)
	}
	// A field of one line alone is a title like any other.
	write(t, a, failure(t, "Cause: the cache", "flush it"))
	write(t, a, failure(t, "Cause: the cache\nIt holds stale tokens.", "shorten its TTL"))
	if res, err = team.Promote(ctx, store, a, team.PromoteOptions{}); err != nil {
		t.Fatal(err)
	}
	if d := res.Disputed(); len(d) != 1 {
		t.Fatalf("a one-field title that says otherwise: %+v, want one disputed", res.Candidates)
	}
}
