package userlayer

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/lifecycle"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
)

const token = "ghp_0123456789abcdefghijABCDEFGHIJ0123456789"

func openLayer(t *testing.T) *Layer {
	t.Helper()
	testgit.Isolate(t)
	l, err := Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	return l
}

func commits(t *testing.T, l *Layer) string {
	t.Helper()
	return testgit.Run(t, l.Project.StateRepo(), "rev-list", "--count", project.GlobalBranch)
}

func TestEditRevalidateAndRetractWriteOneCommitEachOnTheLayersGlobal(t *testing.T) {
	ctx := context.Background()
	l := openLayer(t)
	rec, _ := changelog.NewLearning(changelog.LearningInput{Text: "Prefers tabs", Type: "convention", Domain: "preferences"})
	w, err := l.Write(ctx, rec, agent.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	before := commits(t, l)

	old, err := l.Target(w.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Edit(ctx, old, lifecycle.NextVersion(old)); !errors.Is(err, lifecycle.ErrUnchanged) {
		t.Fatalf("an edit that changes nothing: %v", err)
	}
	next := lifecycle.NextVersion(old)
	next.Body = "Prefers tabs in Makefiles"
	edited, err := l.Edit(ctx, old, next)
	if err != nil {
		t.Fatal(err)
	}
	if got := commits(t, l); got == before {
		t.Fatal("the edit made no commit")
	}
	if _, err := l.Target(w.ID); !planqerr.Is(err, planqerr.Invalid) || !strings.Contains(err.Error(), "superseded by "+edited.ID) {
		t.Errorf("the edited version as a target: %v", err)
	}
	if has, err := Has(l.Handle, w.ID); err != nil || !has {
		t.Errorf("Has(the old version) = %v, %v", has, err)
	}
	if has, err := Has(l.Handle, "pq-0123456789"); err != nil || has {
		t.Errorf("Has(an unknown ID) = %v, %v", has, err)
	}

	again, err := l.Revalidate(ctx, edited.ID)
	if err != nil {
		t.Fatal(err)
	}
	gone, err := l.Retract(ctx, again.ID, "changed my mind")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Retract(ctx, again.ID, ""); !planqerr.Is(err, planqerr.Exists) || !strings.Contains(err.Error(), gone.ID) {
		t.Errorf("retracting twice: %v", err)
	}
	if _, err := l.Retract(ctx, "pq-0123456789", ""); !planqerr.Is(err, planqerr.NotFound) {
		t.Errorf("retracting an unknown ID: %v", err)
	}
	if got := testgit.Run(t, l.Project.StateRepo(), "log", "--format=%s", project.GlobalBranch); !strings.HasPrefix(got,
		"retract learning "+again.ID+": changed my mind\nrevalidate learning "+edited.ID+": Prefers tabs in Makefiles\nedit learning "+w.ID+": Prefers tabs in Makefiles\n") {
		t.Errorf("global's history:\n%s", got)
	}
	if recs := layerRecords(t, l); len(recs) != 0 {
		t.Errorf("after the retraction the layer lists %+v", recs)
	}

	dec, _ := changelog.NewDecision(changelog.DecisionInput{Decision: "Use table-driven tests", Rationale: "one case a line"})
	d, err := l.Write(ctx, dec, agent.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Revalidate(ctx, d.ID); !planqerr.Is(err, planqerr.Invalid) || !strings.Contains(err.Error(), "only learnings") {
		t.Errorf("revalidating a decision: %v", err)
	}
}

func TestTheLayerTakesNoCredentialEvenOneAVersionCarries(t *testing.T) {
	ctx := context.Background()
	l := openLayer(t)
	rec, _ := changelog.NewLearning(changelog.LearningInput{Text: "token " + token, Type: "reference", Domain: "ops"})
	if _, err := l.Write(ctx, rec, agent.WriteOptions{AllowSecret: true}); !planqerr.Is(err, planqerr.Refused) || !strings.Contains(err.Error(), "--allow-secret") {
		t.Fatalf("Write allowing a credential: %v", err)
	}
	rec, _ = changelog.NewLearning(changelog.LearningInput{Text: "harmless", Type: "reference", Domain: "ops"})
	if _, err := l.Write(ctx, rec, agent.WriteOptions{AllowSecret: true}); !planqerr.Is(err, planqerr.Refused) {
		t.Fatalf("Write with the allowance and no credential: %v", err)
	}
	rec, _ = changelog.NewLearning(changelog.LearningInput{Text: "token " + token, Type: "reference", Domain: "ops"})
	var pe *planqerr.Error
	if _, err := l.Write(ctx, rec, agent.WriteOptions{}); !errors.As(err, &pe) || pe.Kind != planqerr.Refused || pe.Hint != NoCredential {
		t.Fatalf("Write of a credential: %v; want a refusal with the layer's hint", err)
	}

	// One that reached the layer another way (pulled, or written before
	// the layer refused the allowance).
	leaked, _ := changelog.NewLearning(changelog.LearningInput{Text: "token " + token, Type: "reference", Domain: "ops"})
	leaked.AllowSecret = true
	if _, err := l.CommitGlobal(ctx, agent.GlobalChange{Writer: Writer, Records: []*changelog.Record{leaked}, Message: "by another way"}); err != nil {
		t.Fatal(err)
	}
	before := commits(t, l)
	old, err := l.Target(leaked.ID)
	if err != nil {
		t.Fatal(err)
	}
	next := lifecycle.NextVersion(old)
	next.Body = "token " + token + ", rotated monthly"
	if _, err := l.Edit(ctx, old, next); !errors.As(err, &pe) || pe.Kind != planqerr.Refused || pe.Hint != NoCredential {
		t.Errorf("an edit carrying the credential: %v", err)
	}
	if _, err := l.Revalidate(ctx, leaked.ID); !planqerr.Is(err, planqerr.Refused) {
		t.Errorf("revalidating it: %v", err)
	}
	if got := commits(t, l); got != before {
		t.Fatalf("refusals made commits: %s, was %s", got, before)
	}
	next = lifecycle.NextVersion(old)
	next.Body = "the token lives in the vault"
	w, err := l.Edit(ctx, old, next)
	if err != nil {
		t.Fatal(err)
	}
	recs := layerRecords(t, l)
	if len(recs) != 1 || recs[0].ID != w.ID || recs[0].AllowSecret {
		t.Fatalf("after the edit the layer holds %+v", recs)
	}
	if _, err := l.Retract(ctx, w.ID, ""); err != nil {
		t.Fatal(err)
	}
}
