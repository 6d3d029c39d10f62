package agent_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/internal/testkit/testproject"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/readmodel"
)

// TestLearnChecksItsDomain: the learn write itself refuses a learning in
// a domain at the hard limit, before anything is written, so no front end
// has to remember to ask; Force records it anyway.
func TestLearnChecksItsDomain(t *testing.T) {
	ctx := context.Background()
	store, a := testproject.Auth(t)
	dir := filepath.Join(a.Dir, "learnings", "auth")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= readmodel.DomainLimit; i++ {
		id := fmt.Sprintf("pq-%010x", i)
		rec := fmt.Sprintf("---\nid: %s\nkind: learning\ntype: pattern\ntimestamp: 2026-11-01T10:00:00Z\nagent: auth\nsubject: rule %d\ndomain: auth\nclassification: tactical\n---\nRule number %d\n", id, i, i)
		if err := os.WriteFile(filepath.Join(dir, id+".md"), []byte(rec), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	testgit.Run(t, a.Dir, "add", "-A")
	testgit.Run(t, a.Dir, "commit", "-q", "-m", "a full domain")
	tip, err := store.Repo.Tip(a.Branch)
	if err != nil {
		t.Fatal(err)
	}

	learning := func() *changelog.Record {
		r, err := changelog.NewLearning(changelog.LearningInput{Text: "One more rule", Type: changelog.TypePattern, Domain: "auth"})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	_, err = a.Learn(ctx, learning(), agent.LearnOptions{})
	if !planqerr.Is(err, planqerr.Refused) {
		t.Fatalf("a learning in a full domain: %v, want refused", err)
	}
	if now, err := store.Repo.Tip(a.Branch); err != nil || now != tip {
		t.Fatalf("the refused learning moved %s from %s to %s (%v)", a.Branch, tip, now, err)
	}
	if _, err := a.Learn(ctx, learning(), agent.LearnOptions{Force: true}); err != nil {
		t.Fatalf("forced: %v", err)
	}
}
