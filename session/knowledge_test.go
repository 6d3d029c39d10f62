package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testproject"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/session"
)

// TestPromoteUpdatesTheKnowledgeBaseAndSurvivesItsFailure: a promote that
// lands records brings the knowledge base in step in a commit of its own;
// an update that fails leaves the promote landed, its error in the result;
// a dry run updates nothing.
func TestPromoteUpdatesTheKnowledgeBaseAndSurvivesItsFailure(t *testing.T) {
	ctx := context.Background()
	p := testproject.New(t, nil)
	store, a := p.Store, p.Agent
	// The service over the test's store: the test breaks the store's
	// config in memory to make the update fail, which no file can say.
	svc := session.Wrap(store)
	write(t, a, changelog.LearningInput{Text: "Tokens expire after 15 minutes.", Type: changelog.TypePattern, Domain: "auth", Subject: "token lifetime"})

	dry, err := svc.Promote(ctx, session.PromoteInput{Agent: a.Name, DryRun: true})
	if err != nil || dry.Knowledge != nil {
		t.Fatalf("dry run: %+v, %v", dry.Knowledge, err)
	}
	res, err := svc.Promote(ctx, session.PromoteInput{Agent: a.Name})
	if err != nil {
		t.Fatal(err)
	}
	if res.Commit == "" || res.Knowledge == nil || res.Knowledge.Created != 1 || res.Knowledge.Commit == "" || res.Knowledge.Error != "" {
		t.Fatalf("promote: %+v, knowledge %+v", res.PromoteResult, res.Knowledge)
	}
	tip, err := store.Repo.Tip(project.GlobalBranch)
	if err != nil || tip.String() != res.Knowledge.Commit {
		t.Errorf("global is at %s, not the update's commit %s (%v)", tip, res.Knowledge.Commit, err)
	}

	// The update fails (a topic no directory can have): the promote stands.
	store.Project.Config.Knowledge.Topics = []string{"Bad Topic"}
	write(t, a, changelog.LearningInput{Text: "Logs are JSON lines.", Type: changelog.TypeConvention, Domain: "logging", Subject: "log format"})
	res, err = svc.Promote(ctx, session.PromoteInput{Agent: a.Name})
	if err != nil {
		t.Fatalf("a failed update failed the promote: %v", err)
	}
	if res.Commit == "" || res.Knowledge == nil || !strings.Contains(res.Knowledge.Error, "Bad Topic") || res.Knowledge.Commit != "" {
		t.Fatalf("promote with a failing update: %+v, knowledge %+v", res.PromoteResult, res.Knowledge)
	}
	if tip, err := store.Repo.Tip(project.GlobalBranch); err != nil || tip.String() != res.Commit {
		t.Errorf("global is at %s, not the promote's %s (%v)", tip, res.Commit, err)
	}
}

// TestAnyWriteOfGlobalKeepsTheKnowledgeBaseInStep: the knowledge base
// follows global as a hook of its writer, not as a step of the methods
// that move it: a learning written on global by a writer the service knows
// nothing of has its article at once, and an update after it has nothing
// to do. A move that changes no learning, decision or article (the plan)
// runs no update.
func TestAnyWriteOfGlobalKeepsTheKnowledgeBaseInStep(t *testing.T) {
	ctx := context.Background()
	p := testproject.New(t, nil)
	svc := session.Wrap(p.Store)
	rec, err := changelog.NewLearning(changelog.LearningInput{Text: "Tokens expire after 15 minutes.", Type: changelog.TypePattern,
		Domain: "auth", Subject: "token lifetime"})
	if err != nil {
		t.Fatal(err)
	}
	written, err := p.Store.CommitGlobal(ctx, agent.GlobalChange{Writer: "lead", Records: []*changelog.Record{rec}, Message: "a lead's learning\n"})
	if err != nil {
		t.Fatal(err)
	}
	tip, err := p.Store.Repo.Tip(project.GlobalBranch)
	if err != nil || tip == written {
		t.Fatalf("global is at the learning's commit %s: no update followed it (%v)", written, err)
	}
	entries, _, err := svc.KBList(ctx, session.KBListInput{})
	if err != nil || len(entries) != 1 || entries[0].Slug != "token-lifetime" {
		t.Fatalf("articles after the write: %+v %v; want token-lifetime", entries, err)
	}
	again, err := svc.KBUpdate(ctx)
	if err != nil || again.Commit != "" {
		t.Fatalf("an update after the write: %+v %v; want nothing left to do", again, err)
	}

	plan, err := p.Store.SetPlan(ctx, "1. Token refresh", false)
	if err != nil {
		t.Fatal(err)
	}
	if tip, err := p.Store.Repo.Tip(project.GlobalBranch); err != nil || tip != plan {
		t.Fatalf("global at %s after a plan set, want the plan's commit %s: an update ran for nothing (%v)", tip, plan, err)
	}
}
