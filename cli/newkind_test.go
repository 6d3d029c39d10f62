package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/rogpeppe/go-internal/testscript"
)

// memoRow is a kind added to the kind table, and nothing else.
const memoRow = `	{Kind: "memo", Noun: "memo", Dir: "memos", Shard: ShardByMonth, About: "Memos: a kind added by a test.", Searched: true},
`

// TestKindAddedToTableReachesEveryFrontEnd builds planq from a copy of this
// source with one more row in the kind table (changelog/kind.go) and no
// other edit, then runs testdata/newkind against it: the new kind is
// validated, searched, listed in the CLI help and in the MCP schema, and
// gets its directory in a new state repository.
func TestKindAddedToTableReachesEveryFrontEnd(t *testing.T) {
	src := copySource(t)
	kindFile := filepath.Join(src, "changelog", "kind.go")
	data, err := os.ReadFile(kindFile)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start := strings.Index(text, "var table = []Spec{")
	end := strings.Index(text[max(start, 0):], "\n}\n")
	if start < 0 || end < 0 {
		t.Fatal("changelog/kind.go has no 'var table = []Spec{ ... }' to add a row to")
	}
	at := start + end + 1
	text = text[:at] + memoRow + text[at:]
	if err := os.WriteFile(kindFile, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "planq-newkind"), "./cmd/planq")
	build.Dir = src
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building planq with a memo kind: %v\n%s", err, out)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/newkind",
		RequireExplicitExec: true,
		Setup: func(e *testscript.Env) error {
			e.Setenv("PATH", bin+string(os.PathListSeparator)+e.Getenv("PATH"))
			return setupScriptEnv(e)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":   cmdExits,
			"gitrepo": cmdGitRepo,
		},
	})
}

// copySource copies the module's files (tracked, and new ones git does not
// ignore) into a temporary directory.
func copySource(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	out := testgit.Run(t, root, "ls-files", "--cached", "--others", "--exclude-standard")
	dst := t.TempDir()
	for _, rel := range strings.Split(out, "\n") {
		data, err := os.ReadFile(filepath.Join(root, rel))
		if os.IsNotExist(err) {
			continue // deleted in the working tree, not yet in git
		}
		if err != nil {
			t.Fatal(err)
		}
		target := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(target, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}
