package project

import (
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/planq-dev/planq/internal/testkit/testgit"
)

// TestCodeBranchProblemAgreesWithGit holds the rules to git's own: every
// name is judged by 'git check-ref-format --branch' too.
func TestCodeBranchProblemAgreesWithGit(t *testing.T) {
	testgit.Isolate(t)
	dir := t.TempDir()
	names := []string{
		"main", "feature/login", "fix-123", "a.b", "v1.2.3", "user/x/y", "é", "a@b", "a{b}", "a-", "a_b", "x.lock.y",
		"../../x", "a..b", "", "HEAD", "@", "-x", "/a", "a/", "a//b", "a@{1}", "a.", "a b", "a\tb", "a~1", "a^",
		"a:b", "a?", "a*", "a[b", `a\b`, ".a", "a/.b", "a.lock", "a/b.lock/c", "a\x7f", "a\x01",
	}
	for _, n := range names {
		cmd := exec.Command("git", "check-ref-format", "--branch", n)
		cmd.Dir = dir
		err := cmd.Run()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatal(err)
		}
		gitOK := err == nil
		problem := CodeBranchProblem(n)
		if gitOK != (problem == "") {
			t.Errorf("%q: git says ok=%v, CodeBranchProblem says %q", n, gitOK, problem)
		}
	}
	err := CheckCodeBranch("../../x")
	if err == nil || !strings.Contains(err.Error(), `branch "../../x": is no branch name git allows: it contains '..'`) {
		t.Errorf("CheckCodeBranch(../../x) = %v", err)
	}
}
