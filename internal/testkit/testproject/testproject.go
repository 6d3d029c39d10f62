package testproject

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/workspace"
)

// Project is a project made for a test.
type Project struct {
	Store *agent.Store
	// Agent is "auth", mounted in Code.
	Agent *agent.Agent
	// Code is the code repository's checkout.
	Code string
}

// New makes the project; files (path → content) are committed in the code
// repository first. The store is closed when the test ends.
func New(t testing.TB, files map[string]string) Project {
	t.Helper()
	testgit.Isolate(t)
	ctx := context.Background()
	code := t.TempDir()
	testgit.Run(t, code, "init", "-q")
	for _, p := range slices.Sorted(maps.Keys(files)) {
		full := filepath.Join(code, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(files[p]), 0o644); err != nil {
			t.Fatal(err)
		}
		testgit.Run(t, code, "add", p)
	}
	testgit.Run(t, code, "commit", "-q", "--allow-empty", "-m", "init")
	res, err := workspace.Init(ctx, code, workspace.InitOptions{Project: "demo"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := workspace.Create(ctx, res.Project, workspace.CreateOptions{Name: "auth", Here: true}); err != nil {
		t.Fatal(err)
	}
	store, err := agent.OpenStore(ctx, res.Project)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	a, err := store.Agent("auth")
	if err != nil {
		t.Fatal(err)
	}
	return Project{Store: store, Agent: a, Code: code}
}

// Auth is New with no files, as most tests want it: the store and agent
// "auth" of a project "demo".
func Auth(t testing.TB) (*agent.Store, *agent.Agent) {
	t.Helper()
	p := New(t, nil)
	return p.Store, p.Agent
}
