package session_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testproject"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
	"github.com/planq-dev/planq/team"
)

// kbPromoted has the project's agent learn text about subject and
// promotes it to global.
func kbPromoted(t *testing.T, p testproject.Project, text, subject string) string {
	t.Helper()
	r, err := changelog.NewLearning(changelog.LearningInput{Text: text, Type: changelog.TypeGuide, Domain: "deploy", Subject: subject})
	if err != nil {
		t.Fatal(err)
	}
	w, err := p.Agent.Learn(context.Background(), r, agent.LearnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := team.Promote(context.Background(), p.Store, p.Agent, team.PromoteOptions{}); err != nil {
		t.Fatal(err)
	}
	return w.ID
}

// TestKBThroughTheService: the knowledge base's capabilities are methods of
// the project service, opened where the project is: update makes the
// article, list and show read it, an edit opened at a short --base commits
// a person's text, one made from a version global left is refused with
// both changes merged, and a deleted article is gone from show.
func TestKBThroughTheService(t *testing.T) {
	ctx := context.Background()
	p := testproject.New(t, nil)
	id := kbPromoted(t, p, "Migrations run before deploys.", "deploy")
	svc := session.Open(p.Code)
	defer svc.Close()

	up, err := svc.KBUpdate(ctx)
	if err != nil || len(up.Created) != 1 || up.Commit == "" {
		t.Fatalf("update: %+v %v", up, err)
	}
	entries, problems, err := svc.KBList(ctx, session.KBListInput{})
	if err != nil || len(entries) != 1 || len(problems) != 0 || entries[0].Slug != "deploy" {
		t.Fatalf("list: %+v %+v %v", entries, problems, err)
	}
	a, err := svc.KBShow(ctx, "deploy")
	if err != nil || len(a.Sources) != 1 || a.Sources[0].Source != id || !a.Sources[0].Current {
		t.Fatalf("show: %+v %v", a, err)
	}

	if _, err := svc.KBOpen(ctx, "deploy", "not-hex"); planqerr.KindOf(err) != planqerr.Invalid || !strings.Contains(err.Error(), "no blob hash") {
		t.Errorf("a --base that is no hash: %v", err)
	}
	was, err := svc.KBOpen(ctx, "deploy", strings.ToUpper(a.Blob[:7]))
	if err != nil || was.Blob.String() != a.Blob || was.Path != a.Path {
		t.Fatalf("open at the short base: %+v %v", was, err)
	}
	edited := string(was.Data) + "\nWe deploy with the runbook.\n"
	res, err := svc.KBEdit(ctx, session.KBEditInput{Was: was, Text: []byte(edited), Name: "deploy.md"})
	if err != nil || res.Action != "updated" || res.CuratedBy != changelog.CuratedMixed {
		t.Fatalf("edit: %+v %v", res, err)
	}
	_, err = svc.KBEdit(ctx, session.KBEditInput{Was: was, Text: []byte(string(was.Data) + "\nRoll back with the tag.\n"), Name: "deploy.md"})
	var stale *session.StaleEdit
	if !errors.As(err, &stale) || !strings.Contains(string(stale.Merged), "runbook") || !strings.Contains(string(stale.Merged), "Roll back") {
		t.Fatalf("an edit of a version global left: %v", err)
	}

	if list, err := svc.KBDisputed(ctx); err != nil || len(list) != 0 {
		t.Errorf("disputed: %+v %v", list, err)
	}
	if list, err := svc.KBDisputes(ctx); err != nil || len(list) != 0 {
		t.Errorf("disputes: %+v %v", list, err)
	}
	if packet, err := svc.KBCurate(ctx, session.KBCurateInput{}); err != nil || packet.Project != "demo" {
		t.Errorf("curate: %+v %v", packet.Project, err)
	}
	del, err := svc.KBDelete(ctx, "deploy")
	if err != nil || del.Path != a.Path {
		t.Fatalf("delete: %+v %v", del, err)
	}
	if _, err := svc.KBShow(ctx, "deploy"); planqerr.KindOf(err) != planqerr.NotFound || !strings.Contains(err.Error(), "was deleted") {
		t.Errorf("show of a deleted article: %v", err)
	}
}

// TestKBBootstrapWritesAsTheMountedAgent: a bootstrap through the service
// finds the code checkout and the agent mounted there itself, and names
// that agent as the writer of what it takes.
func TestKBBootstrapWritesAsTheMountedAgent(t *testing.T) {
	ctx := context.Background()
	p := testproject.New(t, map[string]string{"docs/adr/0001-use-postgres.md": "# 1. Use PostgreSQL\n\n## Status\n\nAccepted\n\n" +
		"## Context\n\nWe need a database.\n\n## Decision\n\nWe will use PostgreSQL.\n\n## Consequences\n\nWe run it.\n"})
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	t.Setenv("CODEX_HOME", t.TempDir())
	svc := session.Open(p.Code)
	defer svc.Close()
	if _, err := svc.KBBootstrap(ctx, session.KBBootstrapInput{From: []string{"nowhere"}}); planqerr.KindOf(err) != planqerr.Invalid {
		t.Errorf("an unknown source: %v", err)
	}
	var heard []string
	res, err := svc.KBBootstrap(ctx, session.KBBootstrapInput{From: []string{"adr"}, Progress: func(what string) { heard = append(heard, what) }})
	if err != nil || len(res.Created) != 1 || res.Commit == "" || len(heard) == 0 {
		t.Fatalf("bootstrap: %+v %v (heard %q)", res, err, heard)
	}
	set, err := p.Store.Records.Branch(session.GlobalBranch, changelog.KindDecision)
	if err != nil || len(set.Records) != 1 || set.Records[0].ID != res.Created[0].ID || set.Records[0].Agent != "auth" {
		t.Errorf("on global: %+v %v; want %s by the mounted agent", set.Records, err, res.Created[0].ID)
	}
}
