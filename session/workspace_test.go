package session_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
)

// TestWorkspaceLifeThroughTheService: one service, opened before the
// checkout was a project, inits it (and then finds it), creates an agent
// here, gives its environment, installs a git hook with its switch, finds
// nothing for doctor, and removes the agent.
func TestWorkspaceLifeThroughTheService(t *testing.T) {
	testgit.Isolate(t)
	ctx := context.Background()
	code := t.TempDir()
	testgit.Run(t, code, "init", "-q")
	testgit.Run(t, code, "commit", "-q", "--allow-empty", "-m", "init")
	svc := session.Open(code)
	defer svc.Close()
	if err := svc.InProject(); !planqerr.Is(err, planqerr.NotInitialized) {
		t.Fatalf("before init: %v, want not initialised", err)
	}
	res, err := svc.Init(ctx, session.InitInput{Project: "demo"})
	if err != nil || !res.WroteConfig || !res.State.Created {
		t.Fatalf("init: %+v, %v", res, err)
	}
	if err := svc.InProject(); err != nil {
		t.Fatalf("after init the service finds no project: %v", err)
	}
	if _, err := svc.Create(ctx, session.CreateInput{Name: "auth", Here: true}); err != nil {
		t.Fatal(err)
	}
	e, err := svc.Env(ctx, "")
	if err != nil || e.Agent != "auth" || e.Project != "demo" || !strings.HasSuffix(e.AgentDir, filepath.Join(".planq", "agent")) {
		t.Fatalf("env: %+v, %v", e, err)
	}

	set, err := svc.SetGitHook(ctx, "post-commit", true, "/usr/bin/planq")
	if err != nil || !set.Changed || set.Switch != "hooks.post_commit" {
		t.Fatalf("install post-commit: %+v, %v", set, err)
	}
	if _, err := os.Stat(set.Path); err != nil {
		t.Fatal(err)
	}
	if again, err := session.Open(code).GitHookOn("post-commit"); err != nil || !again {
		t.Fatalf("post-commit switched on: %v, %v", again, err)
	}

	c, err := svc.Doctor(ctx, false)
	if err != nil || len(c.Findings) != 0 || c.Project != "demo" || c.UserLayerExists {
		t.Fatalf("doctor: %+v, %v", c, err)
	}
	removed, err := svc.Remove(ctx, "auth", false)
	if err != nil || removed.AgentDir == "" {
		t.Fatalf("remove: %+v, %v", removed, err)
	}
}

// TestUserLayerNeedsNoProject: outside any project the user layer's list
// makes no layer, a sync without a remote makes none either, and doctor
// with neither a project nor a layer has nothing to check.
func TestUserLayerNeedsNoProject(t *testing.T) {
	testgit.Isolate(t)
	ctx := context.Background()
	svc := session.Open(t.TempDir())
	defer svc.Close()
	list, err := svc.UserList(ctx)
	if err != nil || list.Exists || list.Records == nil {
		t.Fatalf("user list with no layer: %+v, %v", list, err)
	}
	if _, err := svc.UserPush(ctx, false); !planqerr.Is(err, planqerr.NotFound) {
		t.Fatalf("push with no remote: %v, want not found", err)
	}
	if _, err := svc.UserPush(ctx, true); !planqerr.Is(err, planqerr.Refused) {
		t.Fatalf("push --allow-secret: %v, want refused", err)
	}
	if _, err := svc.Doctor(ctx, false); err == nil {
		t.Fatal("doctor with no project and no user layer: no error")
	}
	pruned, err := svc.UserPrune(ctx, true)
	if err != nil || pruned.Made == "" {
		t.Fatalf("user prune made no layer: %+v, %v", pruned, err)
	}
	if list, err = svc.UserList(ctx); err != nil || !list.Exists {
		t.Fatalf("user list after prune made the layer: %+v, %v", list, err)
	}
	c, err := svc.Doctor(ctx, false)
	if err != nil || c.Project != "" || !c.UserLayerExists {
		t.Fatalf("doctor of the user layer alone: %+v, %v", c, err)
	}
}
