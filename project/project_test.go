package project

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/planq-dev/planq/internal/testgit"
	"github.com/planq-dev/planq/planqerr"
)

func TestFindWalksUpAndSeesThroughAgentMount(t *testing.T) {
	testgit.Isolate(t)
	t.Setenv("PLANQ_HOME", t.TempDir())
	root := t.TempDir()
	testgit.Run(t, root, "init", "-q")
	if err := os.MkdirAll(filepath.Join(root, ".planq", "agent", "log", "2026-11"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ConfigPath), []byte("project: demo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The mounted agent is itself a git worktree: discovery must not stop there.
	if err := os.WriteFile(filepath.Join(root, ".planq", "agent", ".git"), []byte("gitdir: /elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{root, filepath.Join(root, ".planq"), filepath.Join(root, ".planq", "agent", "log", "2026-11")} {
		p, err := Find(dir)
		if err != nil {
			t.Fatalf("Find(%s): %v", dir, err)
		}
		if p.Root != root || p.Workspace != root || p.Config.Project != "demo" {
			t.Errorf("Find(%s) = root %s workspace %s project %s", dir, p.Root, p.Workspace, p.Config.Project)
		}
	}
}

func TestFindInLinkedWorktreeFallsBackToMainConfig(t *testing.T) {
	testgit.Isolate(t)
	t.Setenv("PLANQ_HOME", t.TempDir())
	root := t.TempDir()
	testgit.Run(t, root, "init", "-q")
	testgit.Run(t, root, "commit", "-q", "--allow-empty", "-m", "init")
	if err := os.MkdirAll(filepath.Join(root, ".planq"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ConfigPath), []byte("project: demo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(t.TempDir(), "ws")
	testgit.Run(t, root, "worktree", "add", "-q", ws)
	p, err := Find(ws)
	if err != nil {
		t.Fatal(err)
	}
	realRoot, _ := filepath.EvalSymlinks(root)
	gotRoot, _ := filepath.EvalSymlinks(p.Root)
	if gotRoot != realRoot || p.Workspace != ws || p.Config.Project != "demo" {
		t.Errorf("Find(worktree) = root %s workspace %s project %s", p.Root, p.Workspace, p.Config.Project)
	}
}

func TestFindOutsideAnything(t *testing.T) {
	testgit.Isolate(t)
	dir := t.TempDir()
	_, err := Find(dir)
	if !planqerr.Is(err, planqerr.NotInitialized) {
		t.Fatalf("Find outside git: %v, want NotInitialized", err)
	}
	testgit.Run(t, dir, "init", "-q")
	_, err = Find(dir)
	if !planqerr.Is(err, planqerr.NotInitialized) {
		t.Fatalf("Find in git without config: %v, want NotInitialized", err)
	}
}

func FuzzParseConfig(f *testing.F) {
	f.Add([]byte("project: demo\nhooks:\n  session_start: true\n"))
	f.Add([]byte("project: demo\nproject: other\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseConfig("config", data)
		if err != nil {
			return
		}
		out, err := c.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		again, err := ParseConfig("config", out)
		if err != nil || again != c {
			t.Fatalf("marshal/parse changed the config: %+v -> %+v (%v)", c, again, err)
		}
	})
}
