package staterepo

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planq-dev/planq/project"
)

// TestTipHistoryAfterBranchDeleted: with the branch and its reflog deleted
// under a mounted worktree, the worktree's HEAD reflog still proves the
// branch's tips, newest first, and only those from while HEAD was on it.
func TestTipHistoryAfterBranchDeleted(t *testing.T) {
	r := newRepo(t)
	ctx := context.Background()
	if _, err := r.CreateBranch(ctx, "agent-a", project.GlobalBranch, map[string][]byte{"a.md": []byte("a\n")}, "create"); err != nil {
		t.Fatal(err)
	}
	wt := filepath.Join(t.TempDir(), "wt")
	if err := r.AddWorktree(ctx, wt, "agent-a"); err != nil {
		t.Fatal(err)
	}
	git := func(dir string, args ...string) string {
		t.Helper()
		out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git(wt, "commit", "-q", "--allow-empty", "-m", "one")
	one := git(wt, "rev-parse", "HEAD")
	git(wt, "switch", "-q", "-c", "other")
	git(wt, "commit", "-q", "--allow-empty", "-m", "not agent-a's")
	other := git(wt, "rev-parse", "HEAD")
	git(wt, "switch", "-q", "agent-a")
	git(wt, "commit", "-q", "--allow-empty", "-m", "three")
	three := git(wt, "rev-parse", "HEAD")
	git(r.Path, "update-ref", "-d", "refs/heads/agent-a")

	cands, err := r.TipHistory("agent-a")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cands {
		got = append(got, c.Commit.String())
		if c.Commit.String() == other {
			t.Errorf("TipHistory holds %s, a commit of another branch", other)
		}
	}
	if len(got) < 2 || got[0] != three || got[1] != one {
		t.Fatalf("TipHistory = %v, want %s then %s first", got, three, one)
	}
	tip, ok, err := r.NewestReadableTip("agent-a", NewHash(three))
	if err != nil || !ok || tip.Commit.String() != one {
		t.Fatalf("NewestReadableTip skipping %s = %v %v %v, want %s", three, tip.Commit, ok, err, one)
	}
}
