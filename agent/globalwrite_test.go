package agent_test

import (
	"context"
	"strings"
	"testing"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/internal/testkit/testproject"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
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
