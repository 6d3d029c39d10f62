package session_test

import (
	"context"
	"strings"
	"testing"

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
