package memtool_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/internal/memtool"
	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/internal/testkit/testproject"
)

// TestProtocolFixtures runs the protocol's commands of testdata/protocol
// against an agent's worktree: every answer is the exact text, every
// change is one commit on the agent branch leaving the worktree clean, and
// a view or a refusal commits nothing and changes no file.
func TestProtocolFixtures(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "protocol", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			_, a := testproject.Auth(t)
			var steps []txtar.File
			for _, f := range ar.Files {
				if strings.HasPrefix(f.Name, "memories/") {
					full := filepath.Join(a.Dir, filepath.FromSlash(f.Name))
					if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(full, f.Data, 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				steps = append(steps, f)
			}
			testgit.Run(t, a.Dir, "add", "-A")
			testgit.Run(t, a.Dir, "commit", "-q", "--allow-empty", "-m", "fixture")
			folder, err := memtool.ForAgent(a, agent.WriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i+1 < len(steps); i += 2 {
				in, want := steps[i], steps[i+1]
				name := strings.TrimSuffix(in.Name, ".json")
				wantText := strings.TrimSuffix(string(want.Data), "\n")
				refused := strings.HasSuffix(want.Name, ".refused")
				before := state(t, a.Dir)
				text, err := run(folder, in.Data)
				_, isRefusal := memtool.AsRefusal(err)
				switch {
				case err != nil && !isRefusal:
					t.Fatalf("%s %s: failed: %v", name, in.Data, err)
				case refused != isRefusal:
					t.Errorf("%s %s: refused %t, want %t; answered:\n%s", name, in.Data, isRefusal, refused, text)
				case text != wantText:
					t.Errorf("%s %s: answered\n%s\nwant\n%s", name, in.Data, text, wantText)
				}
				after := state(t, a.Dir)
				changes := strings.Contains(string(in.Data), `"command": "view"`) == false && !refused
				switch {
				case after.status != "":
					t.Errorf("%s: the worktree is not clean after it:\n%s", name, after.status)
				case changes && after.commits != before.commits+1:
					t.Errorf("%s: made %d commits, want 1", name, after.commits-before.commits)
				case !changes && (after.commits != before.commits || after.tree != before.tree):
					t.Errorf("%s: a view or a refusal changed the branch", name)
				}
			}
		})
	}
}

// run applies one command as JSON and returns its answer.
func run(f *memtool.Folder, data []byte) (string, error) {
	c, err := memtool.Parse(data)
	if err != nil {
		return err.Error(), err
	}
	res, err := memtool.Apply(context.Background(), f, c)
	if err != nil {
		return err.Error(), err
	}
	return res.Text, nil
}

type branchState struct {
	commits int
	tree    string
	status  string
}

func state(t *testing.T, dir string) branchState {
	t.Helper()
	var n int
	for _, c := range strings.TrimSpace(testgit.Run(t, dir, "rev-list", "--count", "HEAD")) {
		n = n*10 + int(c-'0')
	}
	return branchState{commits: n, tree: strings.TrimSpace(testgit.Run(t, dir, "rev-parse", "HEAD^{tree}")),
		status: strings.TrimSpace(testgit.Run(t, dir, "status", "--porcelain"))}
}
