package session_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planq-dev/planq/internal/testkit/testproject"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
)

// TestMemoryOneInputBothScopes: the memory tool's one input type acts on
// the agent's memories/ (a file in its worktree, one commit) or the user
// layer's (made on the first command, and said so once); a bad scope, or
// an agent named with the user scope, is refused before anything runs,
// and a command the protocol refuses is a MemoryRefusal.
func TestMemoryOneInputBothScopes(t *testing.T) {
	ctx := context.Background()
	p := testproject.New(t, nil)
	svc := session.Open(p.Code)
	defer svc.Close()

	text := "Run make test before pushing.\n"
	create := session.MemoryCommand{Command: "create", Path: "/memories/build.md", FileText: &text}
	res, err := svc.Memory(ctx, session.MemoryInput{MemoryCommand: create})
	if err != nil || res.Commit == "" || res.Agent != "auth" || res.MadeUserLayer != "" {
		t.Fatalf("create in the agent's memories: %+v, %v", res, err)
	}
	if data, err := os.ReadFile(filepath.Join(p.Code, ".planq", "agent", "memories", "build.md")); err != nil || string(data) != text {
		t.Fatalf("the agent's memories/build.md holds %q (%v)", data, err)
	}
	if _, err := svc.Memory(ctx, session.MemoryInput{MemoryCommand: create}); !isRefusal(err, planqerr.Exists) {
		t.Fatalf("create again: %v, want the protocol's refusal that it exists", err)
	}

	user := session.MemoryInput{Scope: session.ScopeUser, MemoryCommand: create}
	res, err = svc.Memory(ctx, user)
	if err != nil || res.Commit == "" || res.Agent != "" || !strings.HasSuffix(res.MadeUserLayer, "_user.git") {
		t.Fatalf("create in the user layer's memories: %+v, %v", res, err)
	}
	view := session.MemoryInput{Scope: session.ScopeUser, MemoryCommand: session.MemoryCommand{Command: "view", Path: "/memories/build.md"}}
	if res, err = svc.Memory(ctx, view); err != nil || !strings.Contains(res.Text, "make test") || res.MadeUserLayer != "" || res.Commit != "" {
		t.Fatalf("view in the user layer: %+v, %v", res, err)
	}

	for name, in := range map[string]session.MemoryInput{
		"unknown scope":     {Scope: "team", MemoryCommand: create},
		"agent of the user": {Scope: session.ScopeUser, Agent: "auth", MemoryCommand: create},
	} {
		if _, err := svc.Memory(ctx, in); !planqerr.Is(err, planqerr.Invalid) {
			t.Errorf("%s: %v, want invalid", name, err)
		}
	}
}

// TestMemoryUserScopeNeedsNoProject: the user layer's memories are the
// person's, reached from a directory that is no project; the agent's are
// not.
func TestMemoryUserScopeNeedsNoProject(t *testing.T) {
	ctx := context.Background()
	testproject.New(t, nil) // isolates HOME and PLANQ_HOME
	svc := session.Open(t.TempDir())
	defer svc.Close()
	view := session.MemoryCommand{Command: "view", Path: "/memories"}
	if res, err := svc.Memory(ctx, session.MemoryInput{Scope: session.ScopeUser, MemoryCommand: view}); err != nil || res.MadeUserLayer == "" {
		t.Fatalf("view the user layer outside a project: %+v, %v", res, err)
	}
	if _, err := svc.Memory(ctx, session.MemoryInput{MemoryCommand: view}); err == nil {
		t.Fatal("the agent's memories outside a project: no error")
	} else if _, ok := session.AsMemoryRefusal(err); ok {
		t.Fatalf("the agent's memories outside a project: %v is the protocol's answer, want planq's own error", err)
	}
}

// TestMemoryCommandParse: a command over the bound, or one that is no
// object, is refused with the protocol's answer.
func TestMemoryCommandParse(t *testing.T) {
	if c, err := session.ParseMemoryCommand([]byte(`{"command": "view", "path": "/memories"}`)); err != nil || c.Path != "/memories" {
		t.Fatalf("a view: %+v, %v", c, err)
	}
	for name, data := range map[string][]byte{
		"too long": []byte(`{"command": "view", "path": "/memories", "pad": "` + strings.Repeat("a", session.MaxMemoryCommand) + `"}`),
		"no JSON":  []byte(`view /memories`),
	} {
		if _, err := session.ParseMemoryCommand(data); !isRefusal(err, planqerr.Invalid) {
			t.Errorf("%s: %v, want an invalid refusal", name, err)
		}
	}
}

func isRefusal(err error, kind planqerr.Kind) bool {
	r, ok := session.AsMemoryRefusal(err)
	return ok && r.Kind == kind
}
