package userlayer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/internal/testkit/testproject"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
)

// learn writes a learning as the project's agent and returns its ID.
func learn(t *testing.T, a *agent.Agent, in changelog.LearningInput, allowSecret bool) string {
	t.Helper()
	rec, err := changelog.NewLearning(in)
	if err != nil {
		t.Fatal(err)
	}
	w, err := a.Write(context.Background(), rec, agent.WriteOptions{AllowSecret: allowSecret})
	if err != nil {
		t.Fatal(err)
	}
	return w.ID
}

func layerRecords(t *testing.T, l *Layer) []*changelog.Record {
	t.Helper()
	recs, problems, err := List(l.Handle)
	if err != nil || len(problems) > 0 {
		t.Fatalf("List: %v %v", problems, err)
	}
	return recs
}

func TestPromoteCopiesWithItsOriginStripsThePathsAndLandsOnce(t *testing.T) {
	ctx := context.Background()
	p := testproject.New(t, map[string]string{"internal/auth/jwt.go": "package auth\n"})
	root := p.Store.Project.Root
	id := learn(t, p.Agent, changelog.LearningInput{
		Text: "Run " + filepath.Join(root, "scripts/check.sh") + " before a commit; the hooks live in " + root,
		Type: "convention", Domain: "ci", Files: []string{"internal/auth/jwt.go:1-1"},
		Evidence: changelog.Evidence{Issue: "https://example.com/issues/7", Files: []string{"scripts/check.sh"}},
	}, false)
	kept := learn(t, p.Agent, changelog.LearningInput{Text: "Tokens expire after 15 minutes", Type: "pattern", Domain: "auth", Files: []string{"internal/auth/jwt.go"}}, false)

	l, err := Open(ctx, p.Store.Project.Home)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	dry, err := Promote(ctx, p.Store.Handle, l, PromoteOptions{IDs: []string{id}, DryRun: true})
	if err != nil || len(dry.Records) != 1 || dry.Records[0].Action != ActionAdd || dry.Commit != "" || dry.Records[0].Copy != "" {
		t.Fatalf("dry run = %+v, %v", dry, err)
	}
	if recs := layerRecords(t, l); len(recs) != 0 {
		t.Fatalf("a dry run wrote %d records", len(recs))
	}

	res, err := Promote(ctx, p.Store.Handle, l, PromoteOptions{IDs: []string{id, kept}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Commit == "" || len(res.Records) != 2 || res.Records[0].Copy == "" {
		t.Fatalf("promote = %+v", res)
	}
	recs := layerRecords(t, l)
	if len(recs) != 2 {
		t.Fatalf("the user layer holds %d records, want 2", len(recs))
	}
	got := recs[0]
	if got.Origin != "demo/"+id || got.Agent != Writer || got.ID == id {
		t.Errorf("copy: origin %q, agent %q, id %q (original %s)", got.Origin, got.Agent, got.ID, id)
	}
	if len(got.Anchors) != 0 || got.Evidence == nil || got.Evidence.Commit != "" || len(got.Evidence.Files) != 0 || got.Evidence.Issue == "" {
		t.Errorf("paths kept: anchors %+v, evidence %+v", got.Anchors, got.Evidence)
	}
	if strings.Contains(got.Body, root) || !strings.Contains(got.Body, "Run scripts/check.sh before a commit; the hooks live in .") {
		t.Errorf("body still names the checkout, or lost its words: %q", got.Body)
	}
	if recs[1].Evidence != nil {
		t.Errorf("a learning with only code evidence kept %+v", recs[1].Evidence)
	}

	again, err := Promote(ctx, p.Store.Handle, l, PromoteOptions{IDs: []string{id}})
	if err != nil {
		t.Fatal(err)
	}
	if again.Commit != "" || again.Records[0].Action != ActionPresent || again.Records[0].Copy != got.ID {
		t.Fatalf("second promote = %+v, want present as %s and no commit", again, got.ID)
	}
	if n := len(layerRecords(t, l)); n != 2 {
		t.Fatalf("after promoting twice the user layer holds %d records", n)
	}
}

func TestPromoteKeepsPathsWhenAsked(t *testing.T) {
	ctx := context.Background()
	p := testproject.New(t, map[string]string{"internal/auth/jwt.go": "package auth\n"})
	root := p.Store.Project.Root
	id := learn(t, p.Agent, changelog.LearningInput{Text: "Look in " + root + "/internal", Type: "reference", Domain: "auth", Files: []string{"internal/auth/jwt.go"}}, false)
	l, err := Open(ctx, p.Store.Project.Home)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, err := Promote(ctx, p.Store.Handle, l, PromoteOptions{IDs: []string{id}, KeepPaths: true}); err != nil {
		t.Fatal(err)
	}
	got := layerRecords(t, l)[0]
	if len(got.Anchors) != 1 || got.Evidence == nil || got.Evidence.Commit == "" || !strings.Contains(got.Body, root) {
		t.Fatalf("--keep-paths lost paths: %+v %+v %q", got.Anchors, got.Evidence, got.Body)
	}
}

func TestPromoteRefusesAPrivateProjectAnUnknownIDAndACredential(t *testing.T) {
	ctx := context.Background()
	p := testproject.New(t, nil)
	l, err := Open(ctx, p.Store.Project.Home)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()

	_, err = Promote(ctx, p.Store.Handle, l, PromoteOptions{IDs: []string{"pq-0123456789"}})
	if !planqerr.Is(err, planqerr.NotFound) || !strings.Contains(err.Error(), "pq-0123456789") {
		t.Errorf("unknown ID: %v", err)
	}

	secret := learn(t, p.Agent, changelog.LearningInput{Text: "The deploy key is AKIAIOSFODNN7EXAMPLF", Type: "reference", Domain: "ops"}, true)
	_, err = Promote(ctx, p.Store.Handle, l, PromoteOptions{IDs: []string{secret}})
	var pe *planqerr.Error
	if !planqerr.Is(err, planqerr.Refused) || !strings.Contains(err.Error(), "record "+secret) {
		t.Errorf("a credential the project allowed: %v; want a refusal naming %s", err, secret)
	} else if errorsAs(err, &pe); !strings.Contains(pe.Hint, "planq edit "+secret) {
		t.Errorf("hint %q", pe.Hint)
	}

	ok := learn(t, p.Agent, changelog.LearningInput{Text: "Fine to share", Type: "guide", Domain: "ops"}, false)
	p.Store.Project.Config.Private = true
	_, err = Promote(ctx, p.Store.Handle, l, PromoteOptions{IDs: []string{ok}})
	if !planqerr.Is(err, planqerr.Refused) || !strings.Contains(err.Error(), "private") {
		t.Errorf("private project: %v", err)
	}
	if n := len(layerRecords(t, l)); n != 0 {
		t.Fatalf("refusals wrote %d records", n)
	}
}

func TestAdoptWritesAsTheAgentOnce(t *testing.T) {
	ctx := context.Background()
	p := testproject.New(t, nil)
	l, err := Open(ctx, p.Store.Project.Home)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	rec, err := changelog.NewDecision(changelog.DecisionInput{Decision: "Use table-driven tests", Rationale: "one case a line"})
	if err != nil {
		t.Fatal(err)
	}
	w, err := l.Write(ctx, rec, agent.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Adopt(ctx, l.Handle, p.Agent, AdoptOptions{IDs: []string{w.ID}})
	if err != nil || len(res.Records) != 1 || res.Records[0].Action != ActionAdd {
		t.Fatalf("adopt = %+v, %v", res, err)
	}
	set, err := p.Store.Records.Branch(p.Agent.Branch, changelog.KindDecision)
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Records) != 1 || set.Records[0].Origin != "user/"+w.ID || set.Records[0].Agent != "auth" || set.Records[0].ID != res.Records[0].Copy {
		t.Fatalf("the agent holds %+v", set.Records)
	}
	again, err := Adopt(ctx, l.Handle, p.Agent, AdoptOptions{IDs: []string{w.ID}})
	if err != nil || again.Records[0].Action != ActionPresent {
		t.Fatalf("second adopt = %+v, %v", again, err)
	}
	if _, err := Adopt(ctx, l.Handle, p.Agent, AdoptOptions{IDs: []string{"pq-0123456789"}}); !planqerr.Is(err, planqerr.NotFound) {
		t.Errorf("unknown ID: %v", err)
	}
	// Promoting the adopted record back finds it in the user layer.
	back, err := Promote(ctx, p.Store.Handle, l, PromoteOptions{IDs: []string{res.Records[0].Copy}})
	if err != nil || back.Records[0].Action != ActionPresent || back.Records[0].Copy != w.ID {
		t.Fatalf("promoting the adopted record back = %+v, %v", back, err)
	}
}

func TestWriteRefusesWhatTheLayerCannotHold(t *testing.T) {
	ctx := context.Background()
	testgit.Isolate(t)
	l, err := Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	rec, _ := changelog.NewLearning(changelog.LearningInput{Text: "token ghp_0123456789abcdefghijABCDEFGHIJ0123456789", Type: "reference", Domain: "preferences"})
	if _, err := l.Write(ctx, rec, agent.WriteOptions{}); !planqerr.Is(err, planqerr.Refused) {
		t.Errorf("a credential: %v", err)
	}
	rec, _ = changelog.NewLearning(changelog.LearningInput{Text: "newer", Type: "reference", Domain: "preferences", Supersedes: "pq-0123456789"})
	if _, err := l.Write(ctx, rec, agent.WriteOptions{}); !planqerr.Is(err, planqerr.NotFound) {
		t.Errorf("superseding nothing: %v", err)
	}
	if n := len(layerRecords(t, l)); n != 0 {
		t.Fatalf("refusals wrote %d records", n)
	}
}

func TestPushAndPullCarryTheLayerBetweenHomes(t *testing.T) {
	ctx := context.Background()
	testgit.Isolate(t)
	one, two := t.TempDir(), t.TempDir()
	remote := filepath.Join(t.TempDir(), "user.git")
	testgit.Run(t, filepath.Dir(remote), "init", "-q", "--bare", remote)

	l, err := Open(ctx, one)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Push(ctx, false); !planqerr.Is(err, planqerr.NotFound) || !strings.Contains(err.Error(), "no remote") {
		t.Fatalf("push without a remote: %v", err)
	}
	l.Close()
	if err := SetRemote(ctx, one, remote); err != nil {
		t.Fatal(err)
	}
	if err := SetRemote(ctx, one, "https://ada:ghp_0123456789abcdefghijABCDEFGHIJ0123456789@example.com/me.git"); err == nil {
		t.Fatal("a remote with a token was taken")
	}
	if l, err = Open(ctx, one); err != nil {
		t.Fatal(err)
	}
	rec, _ := changelog.NewLearning(changelog.LearningInput{Text: "Prefers short commit subjects", Type: "convention", Domain: "preferences"})
	if _, err := l.Write(ctx, rec, agent.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Push(ctx, false); err != nil {
		t.Fatal(err)
	}
	l.Close()
	if got := testgit.Run(t, remote, "show", "refs/planq/global:"+project.ProjectFile); got != project.UserLayerName {
		t.Fatalf("the remote's PROJECT = %q", got)
	}

	if err := SetRemote(ctx, two, remote); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(project.StateRepoPath(two, project.UserLayerName)); err == nil {
		t.Fatal("setting a remote made the layer")
	}
	m, err := Open(ctx, two)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	res, err := m.Pull(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != "fast-forward" || res.Project != project.UserLayerName {
		t.Errorf("pull = %+v", res)
	}
	if recs := layerRecords(t, m); len(recs) != 1 || recs[0].Title() != "Prefers short commit subjects" {
		t.Fatalf("the second home holds %+v", recs)
	}
}

func errorsAs(err error, target **planqerr.Error) bool { return errors.As(err, target) }

func TestPromoteTakesTheCurrentVersionAndRefusesARetractedRecord(t *testing.T) {
	ctx := context.Background()
	p := testproject.New(t, nil)
	old := learn(t, p.Agent, changelog.LearningInput{Text: "Sessions last an hour", Type: "convention", Domain: "auth"}, false)
	newer := learn(t, p.Agent, changelog.LearningInput{Text: "Sessions last an hour, renewed on use", Type: "convention", Domain: "auth", Supersedes: old}, false)
	gone := learn(t, p.Agent, changelog.LearningInput{Text: "Tokens never expire", Type: "convention", Domain: "auth"}, false)
	if _, err := p.Agent.Retract(ctx, gone, "wrong", agent.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	l, err := Open(ctx, p.Store.Project.Home)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	res, err := Promote(ctx, p.Store.Handle, l, PromoteOptions{IDs: []string{old}})
	if err != nil || res.Records[0].ID != newer || res.Records[0].Origin != "demo/"+newer {
		t.Fatalf("promoting a superseded record = %+v, %v; want its current version %s", res, err, newer)
	}
	if again, err := Promote(ctx, p.Store.Handle, l, PromoteOptions{IDs: []string{newer}}); err != nil || again.Records[0].Action != ActionPresent {
		t.Fatalf("the current version after its predecessor = %+v, %v", again, err)
	}
	if _, err := Promote(ctx, p.Store.Handle, l, PromoteOptions{IDs: []string{gone}}); !planqerr.Is(err, planqerr.Invalid) || !strings.Contains(err.Error(), "retracted") {
		t.Fatalf("a retracted record: %v", err)
	}
	if recs := layerRecords(t, l); len(recs) != 1 || recs[0].Title() != "Sessions last an hour, renewed on use" {
		t.Fatalf("the user layer holds %+v", recs)
	}
}
