package session_test

import (
	"context"
	"testing"
	"time"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testproject"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/session"
)

// TestPromotePreviewIsADryRunOfThePromote: the list a lead picks from is
// the promote itself, dry: it names the candidates and changes nothing;
// the promote of the one picked lands it alone, as the mounted agent's.
func TestPromotePreviewIsADryRunOfThePromote(t *testing.T) {
	ctx := context.Background()
	p := testproject.New(t, nil)
	first := write(t, p.Agent, changelog.LearningInput{Text: "Tokens expire after 15 minutes.", Type: changelog.TypePattern, Domain: "auth", Subject: "token lifetime"})
	write(t, p.Agent, changelog.LearningInput{Text: "Logs are JSON lines.", Type: changelog.TypeConvention, Domain: "logging", Subject: "log format"})
	svc := session.Open(p.Code)
	defer svc.Close()
	before, err := p.Store.Repo.Tip(project.GlobalBranch)
	if err != nil {
		t.Fatal(err)
	}

	name, err := svc.AgentName(ctx, "")
	if err != nil || name != "auth" {
		t.Fatalf("agent mounted: %q %v", name, err)
	}
	preview, err := svc.Promote(ctx, session.PromoteInput{DryRun: true})
	if err != nil || len(preview.Candidates) != 2 || preview.Commit != "" || preview.Knowledge != nil {
		t.Fatalf("preview: %+v %v", preview, err)
	}
	if tip, _ := p.Store.Repo.Tip(project.GlobalBranch); tip != before {
		t.Fatalf("the preview moved global from %s to %s", before, tip)
	}
	res, err := svc.Promote(ctx, session.PromoteInput{IDs: []string{first.ID}})
	if err != nil || len(res.Candidates) != 1 || res.Candidates[0].ID != first.ID || res.Commit == "" {
		t.Fatalf("promote of the one picked: %+v %v", res, err)
	}
}

// TestPruneAndRestoreBringTheKnowledgeBaseInStep: a prune through the
// service archives, as the agent mounted here, and brings the knowledge
// base in step in the same call (no front end remembers it); so does a
// restore. A dry run updates nothing.
func TestPruneAndRestoreBringTheKnowledgeBaseInStep(t *testing.T) {
	ctx := context.Background()
	p := testproject.New(t, nil)
	rec, err := changelog.NewLearning(changelog.LearningInput{Text: "Sessions are kept in Redis.", Type: changelog.TypePattern,
		Domain: "auth", Subject: "session store", Classification: changelog.Tactical})
	if err != nil {
		t.Fatal(err)
	}
	rec.Timestamp = time.Now().Add(-60 * 24 * time.Hour).Truncate(time.Second)
	if _, err := p.Agent.WriteMany(ctx, []*changelog.Record{rec}, "an old learning", agent.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	svc := session.Open(p.Code)
	defer svc.Close()
	if res, err := svc.Promote(ctx, session.PromoteInput{}); err != nil || res.Knowledge == nil || res.Knowledge.Created != 1 {
		t.Fatalf("promote: %+v %v", res, err)
	}

	dry, err := svc.Prune(ctx, session.PruneInput{DryRun: true})
	if err != nil || len(dry.Archived) != 1 || dry.Commit != "" || dry.Knowledge != nil {
		t.Fatalf("dry run: %+v %v", dry, err)
	}
	pruned, err := svc.Prune(ctx, session.PruneInput{})
	if err != nil || len(pruned.Archived) != 1 || pruned.Commit == "" {
		t.Fatalf("prune: %+v %v", pruned, err)
	}
	if k := pruned.Knowledge; k == nil || k.Error != "" || k.Commit == "" {
		t.Fatalf("the knowledge base after the prune: %+v", k)
	}
	marker, err := p.Store.Records.Branch(project.GlobalBranch, changelog.KindLearning)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range marker.Records {
		if r.ID == pruned.Archived[0].Marker && r.Agent != "auth" {
			t.Errorf("the archive record is written by %q, not the agent mounted here", r.Agent)
		}
	}

	back, err := svc.Restore(ctx, rec.ID)
	if err != nil || back.Restored == "" || back.Knowledge == nil || back.Knowledge.Error != "" {
		t.Fatalf("restore: %+v %v", back, err)
	}
}
