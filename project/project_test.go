package project

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/planq-dev/planq/internal/testkit/testgit"
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
	f.Add([]byte("project: demo\nshelf_life:\n  tactical: 3d\n  observational: never\n"))
	f.Add([]byte("project: demo\nshelf_life:\n  tactical: 2w\n  observational: 336h\n"))
	f.Add([]byte("project: demo\nshelf_life:\n  tactical: [3d]\n"))
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
		if err != nil || !reflect.DeepEqual(again, c) {
			t.Fatalf("marshal/parse changed the config: %+v -> %+v (%v)", c, again, err)
		}
	})
}

// TestShelfLifeReadsAndNamesItsLine: a project's shelf lives read in days,
// weeks, Go durations or never, survive a rewrite of the config, and one
// that does not read is an error naming its line.
func TestShelfLifeReadsAndNamesItsLine(t *testing.T) {
	c, err := ParseConfig("config", []byte("project: demo\nshelf_life:\n  tactical: 3d\n  observational: never\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.ShelfLife.Tactical.Span != 72*time.Hour || !c.ShelfLife.Observational.Never {
		t.Errorf("shelf life read as %+v", c.ShelfLife)
	}
	out, err := c.Marshal()
	if err != nil || !strings.Contains(string(out), "tactical: 3d") {
		t.Fatalf("marshal: %v\n%s", err, out)
	}
	if again, err := ParseConfig("config", out); err != nil || !reflect.DeepEqual(again, c) {
		t.Errorf("a rewrite changed the shelf life: %+v, %v", again, err)
	}
	for _, span := range []string{"2w", "336h", "106751d"} {
		if _, err := ParseLifeSpan(span); err != nil {
			t.Errorf("%s: %v", span, err)
		}
	}
	for _, bad := range []struct{ text, want string }{
		{"project: demo\nshelf_life:\n  tactical: soon\n", `config: line 3: "soon" is not a span of time`},
		{"project: demo\nshelf_life:\n  tactical: 0d\n", `line 3: "0d" is not a span`},
		{"project: demo\nshelf_life:\n  tactical: 106752d\n", `line 3: "106752d" is not a span`}, // past what a Duration holds
		{"project: demo\nshelf_life:\n  observational: 14\n", `line 3: "14" is not a span`},      // no unit
		{"project: demo\nshelf_life:\n  foundational: 3d\n", `line 3: unknown key "foundational" (known: tactical, observational)`},
	} {
		if _, err := ParseConfig("config", []byte(bad.text)); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: %v, want %q", bad.text, err, bad.want)
		}
	}
}

// FuzzParseLifeSpan: whatever reads is "never" or a positive span (a span
// that wrapped around to zero or below would expire every learning at
// once), and reads the same again from the text it keeps.
func FuzzParseLifeSpan(f *testing.F) {
	for _, seed := range []string{"14d", "2w", "336h", "1h30m", "never", "0d", "-3d", "106751d", "106752d", "15250w", "9223372036854775807d", " 3d ", "d", "3"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := ParseLifeSpan(s)
		if err != nil {
			return
		}
		if l.Never == (l.Span != 0) || l.Span < 0 {
			t.Fatalf("%q read as %+v: neither never nor a positive span", s, l)
		}
		again, err := ParseLifeSpan(l.Text)
		if err != nil || again != l {
			t.Fatalf("%q read as %+v, its text %q as %+v (%v)", s, l, l.Text, again, err)
		}
	})
}
