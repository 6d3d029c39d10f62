package staterepo

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/planqerr"
)

// A server's own refusal is told apart from a push that lost a race: only
// the race is worth pulling and pushing again.
func TestDeclined(t *testing.T) {
	gitErr := &GitError{Args: []string{"push"}, Err: errors.New("exit status 1"),
		Stderr: "remote: no pushes on Fridays\x1b[K   \nremote: ask ops    \nerror: failed to push some refs to 'x'\n"}
	for _, c := range []struct {
		name, out string
		refusal   bool
	}{
		{"hook", "To x\n!\tglobal:refs/planq/global\t[remote rejected] (pre-receive hook declined)\nDone", true},
		{"rule", "To x\n!\tglobal:refs/planq/global\t[remote rejected] (push declined due to repository rule violations)\nDone", true},
		{"lock", "To x\n!\tglobal:refs/planq/global\t[remote rejected] (failed to update ref)\nDone", false},
		{"cannot lock", "To x\n!\tglobal:refs/planq/global\t[remote rejected] (cannot lock ref 'refs/planq/global': is at 1 but expected 2)\nDone", false},
		{"stale lease", "To x\n!\tglobal:refs/planq/global\t[rejected] (stale info)\nDone", false},
		{"pushed", "To x\n=\tglobal:refs/planq/global\t[up to date]\nDone", false},
	} {
		err := declined("origin", c.out, gitErr)
		if (err != nil) != c.refusal {
			t.Errorf("%s: declined = %v, want a refusal: %v", c.name, err, c.refusal)
			continue
		}
		if err == nil {
			continue
		}
		if !planqerr.Is(err, planqerr.Failure) {
			t.Errorf("%s: %v is no failure", c.name, err)
		}
		msg := err.Error()
		for _, want := range []string{"refs/planq/global", "remote: no pushes on Fridays\n", "remote: ask ops"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s: %q does not say %q", c.name, msg, want)
			}
		}
		if strings.Contains(msg, "\x1b") {
			t.Errorf("%s: %q carries the server's escape sequence", c.name, msg)
		}
	}
}

// TestRemoteURLReadsWhatGitReads: the URL planq reads of a remote in its
// own process is the one git config gives, through every way the config
// can say it: set by planq, changed by git, said twice, in a section
// written twice, and in a config that includes another (which git reads).
func TestRemoteURLReadsWhatGitReads(t *testing.T) {
	ctx := t.Context()
	r := newRepo(t)
	check := func(what, want string) {
		t.Helper()
		got, err := r.RemoteURL(ctx, "origin")
		if err != nil || got != want {
			t.Fatalf("%s: RemoteURL = %q, %v; want %q", what, got, err, want)
		}
		byGit, _ := r.ConfigValue(ctx, "remote.origin.url")
		if byGit != want {
			t.Fatalf("%s: git config says %q, the test wants %q", what, byGit, want)
		}
	}
	check("no remote", "")
	if err := r.SetRemote(ctx, "origin", "/srv/team.git"); err != nil {
		t.Fatal(err)
	}
	check("set by planq", "/srv/team.git")
	testgit.Run(t, r.Path, "config", "remote.origin.url", "/srv/other.git")
	check("changed by git", "/srv/other.git")
	testgit.Run(t, r.Path, "config", "--add", "remote.origin.url", "/srv/last.git")
	check("said twice", "/srv/last.git")
	appendConfig := func(text string) {
		t.Helper()
		f, err := os.OpenFile(filepath.Join(r.Path, "config"), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString(text); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	appendConfig("[remote \"origin\"]\n\turl = /srv/again.git\n")
	check("a section written twice", "/srv/again.git")
	included := filepath.Join(t.TempDir(), "more.config")
	if err := os.WriteFile(included, []byte("[remote \"origin\"]\n\turl = /srv/included.git\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	appendConfig("[include]\n\tpath = " + included + "\n")
	check("included from another file", "/srv/included.git")
}
