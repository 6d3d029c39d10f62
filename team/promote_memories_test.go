package team_test

import (
	"context"
	"strings"
	"testing"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/internal/memtool"
	"github.com/planq-dev/planq/internal/testkit/testproject"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/team"
	"github.com/planq-dev/planq/workspace"
)

// remember runs one memory-tool command for a.
func remember(t *testing.T, a *agent.Agent, c memtool.Command) {
	t.Helper()
	f, err := memtool.ForAgent(a, agent.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := memtool.Apply(context.Background(), f, c); err != nil {
		t.Fatalf("%s %s: %v", c.Command, c.Path, err)
	}
}

func text(s string) *string { return &s }

// onGlobal is the file at p on global, "" when there is none.
func onGlobal(t *testing.T, store *agent.Store, p string) string {
	t.Helper()
	tip, err := store.Repo.Tip(project.GlobalBranch)
	if err != nil {
		t.Fatal(err)
	}
	data, err := store.Repo.ReadFile(tip, p)
	if err != nil {
		return ""
	}
	return string(data)
}

// TestPromoteCarriesMemories: what the memory tool wrote reaches global
// with the agent's records, three-way per path: a file changed on the
// agent's side is taken, a deletion too; two agents that wrote one memory
// path differently lose neither: global keeps the first promoted, the
// other lands beside it under its agent's name.
func TestPromoteCarriesMemories(t *testing.T) {
	p := testproject.New(t, nil)
	store, auth := p.Store, p.Agent
	ctx := context.Background()
	if _, err := workspace.Create(ctx, store.Project, workspace.CreateOptions{Name: "api"}); err != nil {
		t.Fatal(err)
	}
	api, err := store.Agent("api")
	if err != nil {
		t.Fatal(err)
	}
	remember(t, auth, memtool.Command{Command: "create", Path: "/memories/repo/build.md", FileText: text("Build with make.\n")})
	remember(t, auth, memtool.Command{Command: "create", Path: "/memories/scratch.md", FileText: text("temporary\n")})
	remember(t, api, memtool.Command{Command: "create", Path: "/memories/repo/build.md", FileText: text("Build with bazel.\n")})

	res, err := team.Promote(ctx, store, auth, team.PromoteOptions{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Candidates) != 2 || res.Candidates[0].Action != team.ActionMemory || res.Candidates[0].Path != "memories/repo/build.md" {
		t.Fatalf("dry run: %+v, want the two memories", res.Candidates)
	}
	if got := onGlobal(t, store, "memories/repo/build.md"); got != "" {
		t.Fatalf("a dry run wrote global: %q", got)
	}
	if _, err := team.Promote(ctx, store, auth, team.PromoteOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := onGlobal(t, store, "memories/repo/build.md"); got != "Build with make.\n" {
		t.Fatalf("global's memories/repo/build.md after auth's promote: %q", got)
	}
	// api wrote the same path its own way: both stay.
	res, err = team.Promote(ctx, store, api, team.PromoteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Candidates) != 1 || res.Candidates[0].Path != "memories/repo/build.api.md" || !strings.Contains(res.Candidates[0].Title, "beside memories/repo/build.md") {
		t.Fatalf("api's promote: %+v, want its version beside auth's", res.Candidates)
	}
	if a, b := onGlobal(t, store, "memories/repo/build.md"), onGlobal(t, store, "memories/repo/build.api.md"); a != "Build with make.\n" || b != "Build with bazel.\n" {
		t.Fatalf("global holds %q and %q; want both versions", a, b)
	}
	// Promoting again brings nothing new.
	if res, err = team.Promote(ctx, store, api, team.PromoteOptions{DryRun: true}); err != nil || len(res.Candidates) != 0 {
		t.Fatalf("a second promote of api: %+v, %v; want nothing", res.Candidates, err)
	}
	// An edit and a deletion on auth's side are taken.
	remember(t, auth, memtool.Command{Command: "str_replace", Path: "/memories/repo/build.md", OldStr: text("make"), NewStr: text("make -j8")})
	remember(t, auth, memtool.Command{Command: "delete", Path: "/memories/scratch.md"})
	if _, err := team.Promote(ctx, store, auth, team.PromoteOptions{}); err != nil {
		t.Fatal(err)
	}
	if a, s := onGlobal(t, store, "memories/repo/build.md"), onGlobal(t, store, "memories/scratch.md"); a != "Build with make -j8.\n" || s != "" {
		t.Fatalf("after auth's edit and deletion global holds %q and %q", a, s)
	}
}
