package team_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/planq-dev/planq/internal/testkit/testproject"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/team"
)

// TestAwaitingPromotionReadsWithoutAWriter: what awaits promotion is
// found through a read handle alone, and it is what promote's dry run
// would bring: a new learning, and one global holds already, as a
// duplicate of global's.
func TestAwaitingPromotionReadsWithoutAWriter(t *testing.T) {
	store, a := testproject.Auth(t)
	ctx := context.Background()
	write(t, a, learning(t, "Tokens expire after 15 minutes"))
	if _, err := team.Promote(ctx, store, a, team.PromoteOptions{}); err != nil {
		t.Fatal(err)
	}
	write(t, a, learning(t, "Refresh tokens rotate on every use"))
	write(t, a, learning(t, "Tokens expire after 15 minutes"))

	h, err := readmodel.OpenHandle(ctx, store.Project)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = h.Close() }()
	got, err := team.AwaitingPromotion(ctx, h)
	if err != nil {
		t.Fatal(err)
	}
	dry, err := team.Promote(ctx, store, a, team.PromoteOptions{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Agent != a.Name || len(dry.Candidates) != 2 ||
		!reflect.DeepEqual(agreed(got[0].Candidates), agreed(dry.Candidates)) {
		t.Fatalf("awaiting promotion: %+v\nwant promote's dry run for %s: %+v (2 candidates)", got, a.Name, dry.Candidates)
	}
}

// agreed is what two runs agree on: a duplicate's new version gets a
// fresh ID, so its path differs from run to run.
func agreed(cs []team.Candidate) []team.Candidate {
	out := make([]team.Candidate, len(cs))
	for i, c := range cs {
		out[i] = team.Candidate{Action: c.Action, ID: c.ID, Kind: c.Kind, Title: c.Title, Existing: c.Existing}
	}
	return out
}
