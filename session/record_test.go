package session_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testproject"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
)

// TestLearnAndDecideInBothScopes: one input type records in the project
// (as the mounted agent) or in the user layer (made by the first write,
// which says so), and the user layer refuses what names a project's code
// or agent, or allows a credential, before anything is made.
func TestLearnAndDecideInBothScopes(t *testing.T) {
	ctx := context.Background()
	p := testproject.New(t, nil)
	svc := serviceAt(t, p.Code)
	learning := changelog.LearningInput{Text: "Tokens expire after 15 minutes", Type: changelog.TypePattern, Domain: "auth"}

	user := session.LearnInput{LearningInput: learning, Scope: session.ScopeUser}
	for name, in := range map[string]session.LearnInput{
		"anchors":       {LearningInput: changelog.LearningInput{Text: "x", Type: changelog.TypePattern, Domain: "a", Files: []string{"go.mod"}}, Scope: session.ScopeUser},
		"an agent":      {LearningInput: learning, Scope: session.ScopeUser, Author: session.Author{Agent: "auth"}},
		"a credential":  {LearningInput: learning, Scope: session.ScopeUser, Author: session.Author{AllowSecret: true}},
		"unknown scope": {LearningInput: learning, Scope: "team"},
		"no type":       {LearningInput: changelog.LearningInput{Text: "x", Domain: "a"}},
	} {
		if _, err := svc.Learn(ctx, in); err == nil {
			t.Errorf("%s: recorded", name)
		}
	}
	if _, err := os.Stat(filepath.Join(os.Getenv("PLANQ_HOME"), "state-repos", "_user.git")); err == nil {
		t.Fatal("a refused write made the user layer")
	}

	mine, err := svc.Learn(ctx, session.LearnInput{LearningInput: learning})
	if err != nil || mine.Agent != "auth" || mine.Made != "" || mine.Kind != changelog.KindLearning {
		t.Fatalf("learn in the project: %+v, %v", mine, err)
	}
	theirs, err := svc.Learn(ctx, user)
	if err != nil || theirs.Agent != "user" || !strings.HasSuffix(theirs.Made, "_user.git") {
		t.Fatalf("learn in the user layer: %+v, %v", theirs, err)
	}
	decided, err := svc.Decide(ctx, session.DecideInput{Scope: session.ScopeUser,
		DecisionInput: changelog.DecisionInput{Decision: "Use ripgrep", Rationale: "fast"}})
	if err != nil || decided.Made != "" || decided.Kind != changelog.KindDecision {
		t.Fatalf("decide in the user layer, made: %+v, %v", decided, err)
	}
}

// TestEditRetractRevalidateFindTheirRecord: an edit by fields writes a new
// version, the same edit again changes nothing, and text that says nothing
// is refused with the way to retract; a project's command on a record only
// the user layer holds points there, and the user layer's scope acts on it.
func TestEditRetractRevalidateFindTheirRecord(t *testing.T) {
	ctx := context.Background()
	p := testproject.New(t, map[string]string{"jwt.go": "package auth\n"})
	svc := serviceAt(t, p.Code)
	learned, err := svc.Learn(ctx, session.LearnInput{LearningInput: changelog.LearningInput{Text: "Tokens expire after 10 minutes",
		Type: changelog.TypePattern, Domain: "auth", Files: []string{"jwt.go"}}})
	if err != nil {
		t.Fatal(err)
	}
	text := "Tokens expire after 15 minutes"
	edited, err := svc.Edit(ctx, session.EditInput{ID: learned.ID, Text: &text, Tags: []string{"jwt"}})
	if err != nil || edited.ID == learned.ID {
		t.Fatalf("edit: %+v, %v", edited, err)
	}
	if _, err := svc.Edit(ctx, session.EditInput{ID: edited.ID, Text: &text}); !errors.Is(err, session.ErrUnchanged) {
		t.Errorf("the same edit again: %v, want ErrUnchanged", err)
	}
	blank := " "
	var pe *planqerr.Error
	if _, err := svc.Edit(ctx, session.EditInput{ID: edited.ID, Text: &blank}); !errors.As(err, &pe) || !strings.Contains(pe.Hint, "planq retract "+edited.ID) {
		t.Errorf("a blank edit: %v, want refused with the way to retract", err)
	}
	if _, err := svc.Revalidate(ctx, session.RevalidateInput{ID: edited.ID}); err != nil {
		t.Errorf("revalidate: %v", err)
	}

	theirs, err := svc.Learn(ctx, session.LearnInput{LearningInput: changelog.LearningInput{Text: "Prefers tabs",
		Type: changelog.TypeConvention, Domain: "preferences"}, Scope: session.ScopeUser})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Retract(ctx, session.RetractInput{ID: theirs.ID}); !errors.As(err, &pe) || pe.Kind != planqerr.NotFound ||
		pe.Hint != "act on it there: planq retract "+theirs.ID+" --scope user" {
		t.Errorf("retract in the project of the user layer's record: %v", err)
	}
	retracted, err := svc.Retract(ctx, session.RetractInput{ID: theirs.ID, Scope: session.ScopeUser, Reason: "changed my mind"})
	if err != nil || retracted.Agent != "user" {
		t.Errorf("retract in the user layer: %+v, %v", retracted, err)
	}
}

// TestAgentFilesThroughTheService: scratch notes, artifacts, a branch's
// context and the plan, each written and read back.
func TestAgentFilesThroughTheService(t *testing.T) {
	ctx := context.Background()
	p := testproject.New(t, nil)
	svc := serviceAt(t, p.Code)
	if _, err := svc.WriteScratch(ctx, session.ScratchInput{Text: " "}); !planqerr.Is(err, planqerr.Invalid) {
		t.Errorf("append nothing to the scratch notes: %v", err)
	}
	if _, err := svc.WriteScratch(ctx, session.ScratchInput{Text: "check the refresh path"}); err != nil {
		t.Fatal(err)
	}
	if notes, err := svc.Scratch(ctx, ""); err != nil || notes.Agent != "auth" || !strings.Contains(notes.Text, "check the refresh path") {
		t.Errorf("scratch: %+v, %v", notes, err)
	}
	if _, err := svc.AddArtifact(ctx, session.ArtifactInput{Name: "bench.txt", Data: []byte("ok\n")}); err != nil {
		t.Fatal(err)
	}
	if list, err := svc.Artifacts(ctx, ""); err != nil || len(list) != 1 || list[0].Name != "bench.txt" {
		t.Errorf("artifacts: %+v, %v", list, err)
	}

	branch := session.BranchInput{Branch: "feature/login"}
	if view, err := svc.Branch(ctx, branch); err != nil || view.Context != nil || !strings.Contains(view.Text(), "## Plan") {
		t.Errorf("a branch with no context: %+v, %v", view, err)
	}
	branch.Text = "Refresh on 401"
	if _, err := svc.WriteBranch(ctx, branch); err != nil {
		t.Fatal(err)
	}
	if view, err := svc.Branch(ctx, branch); err != nil || view.Context == nil || view.Source != "agent" || !strings.Contains(view.Body, "Refresh on 401") {
		t.Errorf("the branch's context: %+v, %v", view, err)
	}
	if _, err := svc.Branch(ctx, session.BranchInput{Branch: "-bad"}); err == nil {
		t.Error("a branch name git refuses was read")
	}

	if _, err := svc.SetPlan(ctx, "1. Token refresh\n", false); err != nil {
		t.Fatal(err)
	}
	if plan, err := svc.Plan(ctx); err != nil || plan != "1. Token refresh\n" {
		t.Errorf("plan: %q, %v", plan, err)
	}
}
