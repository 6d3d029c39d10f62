package agent_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/internal/testkit/testproject"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// TestRegeneratedFilesAreCheckedAsText: a file sync regenerates goes
// through CommitGlobal like every write to global: text past a record
// file's 1 MiB lands (changelog.md grows with the project), text with a NUL
// byte or not UTF-8 is refused with nothing written, and the same content
// again commits nothing.
func TestRegeneratedFilesAreCheckedAsText(t *testing.T) {
	ctx := context.Background()
	store, _ := testproject.Auth(t)
	tip := func() string {
		h, err := store.Repo.Tip(project.GlobalBranch)
		if err != nil {
			t.Fatal(err)
		}
		return h.String()
	}
	regenerate := func(data string) error {
		_, err := store.CommitGlobal(ctx, agent.GlobalChange{Message: "changelog: regenerate\n", Regenerated: func() (map[string][]byte, error) {
			return map[string][]byte{project.ChangelogFile: []byte(data)}, nil
		}})
		return err
	}
	large := strings.Repeat("- an entry of the changelog\n", 50000) // 1.4 MB
	if err := regenerate(large); err != nil {
		t.Fatalf("a changelog past 1 MiB: %v", err)
	}
	landed := tip()
	if err := regenerate(large); err != nil || tip() != landed {
		t.Fatalf("the same changelog again: %v; global moved from %s to %s", err, landed, tip())
	}
	for _, bad := range []string{"a\x00b\n", "\xff\xfe\n"} {
		if err := regenerate(bad); !planqerr.Is(err, planqerr.Invalid) || tip() != landed {
			t.Errorf("regenerated %q: %v, global at %s (was %s); want Invalid and nothing written", bad, err, tip(), landed)
		}
	}
}

// TestPlanReplacesThePlanItRead: SetPlan replaces global's plan.md through
// CommitGlobal; one set after another replaces it each time.
func TestPlanReplacesThePlanItRead(t *testing.T) {
	ctx := context.Background()
	store, _ := testproject.Auth(t)
	for _, plan := range []string{"1. Token refresh", "2. Rate limits"} {
		if _, err := store.SetPlan(ctx, plan, false); err != nil {
			t.Fatalf("plan %q: %v", plan, err)
		}
		tip, err := store.Repo.Tip(project.GlobalBranch)
		if err != nil {
			t.Fatal(err)
		}
		tree, err := store.Repo.TreeOf(tip)
		if err != nil {
			t.Fatal(err)
		}
		blob, err := store.Repo.BlobAt(tree, project.PlanFile)
		if err != nil {
			t.Fatal(err)
		}
		data, err := store.Repo.ReadBlob(blob)
		if err != nil || string(data) != plan+"\n" {
			t.Fatalf("plan.md = %q, %v; want %q", data, err, plan)
		}
	}
}

// TestEveryMoveOfGlobalIsHeard: the writer of global tells GlobalMoved of
// each move it makes, with the commits before and after, and of nothing
// else: a commit that changes nothing and a move that lost its race are
// not moves. staterepo moves global for no one else.
func TestEveryMoveOfGlobalIsHeard(t *testing.T) {
	ctx := context.Background()
	store, _ := testproject.Auth(t)
	type move struct{ from, to staterepo.Hash }
	var heard []move
	store.GlobalMoved = func(_ context.Context, from, to staterepo.Hash) { heard = append(heard, move{from, to}) }
	before, err := store.Repo.Tip(project.GlobalBranch)
	if err != nil {
		t.Fatal(err)
	}
	after, err := store.SetPlan(ctx, "1. Token refresh", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(heard) != 1 || heard[0] != (move{before, after}) {
		t.Fatalf("a plan set: heard %v, want one move %s -> %s", heard, before, after)
	}
	if _, err := store.SetPlan(ctx, "1. Token refresh", false); err != nil || len(heard) != 1 {
		t.Fatalf("the same plan again: %v; heard %d moves, want still 1", err, len(heard))
	}
	if err := store.MoveGlobal(ctx, "test", before, after); !errors.Is(err, staterepo.ErrRefMoved) || len(heard) != 1 {
		t.Fatalf("a move from where global no longer is: %v, heard %d moves; want ErrRefMoved and none heard", err, len(heard))
	}
	err = store.Repo.UpdateRefs(ctx, "test", []staterepo.RefUpdate{{Ref: project.BranchRef(project.GlobalBranch), New: before, Old: after}})
	if err == nil || !strings.Contains(err.Error(), "SwapGlobal") {
		t.Fatalf("UpdateRefs of global: %v; want a refusal naming SwapGlobal", err)
	}
	if tip, err := store.Repo.Tip(project.GlobalBranch); err != nil || tip != after {
		t.Fatalf("global at %s after the refused update, want %s (%v)", tip, after, err)
	}
}
