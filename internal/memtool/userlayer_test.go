package memtool_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/internal/memtool"
	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/internal/userlayer"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

func userFolder(t *testing.T, l *userlayer.Layer) *memtool.Folder {
	t.Helper()
	f, done, err := memtool.ForUserLayer(l.Store)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(done)
	return f
}

func globalFile(t *testing.T, l *userlayer.Layer, p string) (string, bool) {
	t.Helper()
	tip, err := l.Repo.Tip(project.GlobalBranch)
	if err != nil {
		t.Fatal(err)
	}
	data, err := l.Repo.ReadFile(tip, p)
	return string(data), err == nil
}

func globalCommits(t *testing.T, l *userlayer.Layer) string {
	t.Helper()
	return strings.TrimSpace(testgit.Run(t, l.Project.StateRepo(), "rev-list", "--count", project.GlobalBranch))
}

// TestUserLayerFolder: the user layer's memories live on its global
// branch: each change is one commit there, a view none; a folder opened
// before another writer changed global works on what global holds now;
// a change that lands between the read and the commit fails the command
// and is never undone; the temporary directory goes when done.
func TestUserLayerFolder(t *testing.T) {
	testgit.Isolate(t)
	ctx := context.Background()
	l, err := userlayer.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	f := userFolder(t, l)
	before := globalCommits(t, l)
	if _, err := apply(t, f, memtool.Command{Command: "create", Path: "/memories/prefs.md", FileText: str("tabs\n")}); err != nil {
		t.Fatal(err)
	}
	if got, _ := globalFile(t, l, "memories/prefs.md"); got != "tabs\n" {
		t.Fatalf("global holds %q", got)
	}
	if _, err := apply(t, f, memtool.Command{Command: "view", Path: "/memories/prefs.md"}); err != nil {
		t.Fatal(err)
	}
	if n := globalCommits(t, l); n == before || atoiT(t, n) != atoiT(t, before)+1 {
		t.Fatalf("%s commits after a create and a view, from %s; want one more", n, before)
	}

	// Another folder (another process) edits the file: this one, opened
	// before, edits what global holds now, never undoing it.
	other, top := userFolder(t, l), 0
	if _, err := apply(t, other, memtool.Command{Command: "insert", Path: "/memories/prefs.md", InsertLine: &top, InsertText: str("# Preferences")}); err != nil {
		t.Fatal(err)
	}
	if _, err := apply(t, f, memtool.Command{Command: "str_replace", Path: "/memories/prefs.md", OldStr: str("tabs"), NewStr: str("tabs, not spaces")}); err != nil {
		t.Fatal(err)
	}
	if got, _ := globalFile(t, l, "memories/prefs.md"); got != "# Preferences\ntabs, not spaces\n" {
		t.Fatalf("after two folders' edits global holds %q", got)
	}

	// A change that lands after the folder read global, before it
	// commits: the command fails, global keeps that change.
	check := f.Check
	f.Check = func(subject string, data []byte) error {
		if _, err := l.CommitGlobal(ctx, agent.GlobalChange{Rewrites: map[string]agent.Rewrite{
			"memories/prefs.md": {Data: []byte("pulled meanwhile\n"), Was: blobOf(t, l, "memories/prefs.md")}}, Message: "pull"}); err != nil {
			t.Fatal(err)
		}
		return check(subject, data)
	}
	_, err = apply(t, f, memtool.Command{Command: "str_replace", Path: "/memories/prefs.md", OldStr: str("not spaces"), NewStr: str("never spaces")})
	if _, refused := memtool.AsRefusal(err); err == nil || refused {
		t.Fatalf("a commit over a change it did not see: err %v, want planq's failure", err)
	}
	if got, _ := globalFile(t, l, "memories/prefs.md"); got != "pulled meanwhile\n" {
		t.Fatalf("global holds %q, want the change that landed meanwhile", got)
	}
	f.Check = check

	// Deleting the folder's last file: gone from global.
	if _, err := apply(t, f, memtool.Command{Command: "delete", Path: "/memories/prefs.md"}); err != nil {
		t.Fatal(err)
	}
	if _, ok := globalFile(t, l, "memories/prefs.md"); ok {
		t.Fatal("a deleted memory is still on global")
	}
	// A credential is refused, whatever the options.
	_, err = apply(t, f, memtool.Command{Command: "create", Path: "/memories/k.md", FileText: str("AKIAIOSFODNN7EXAMPLE")})
	if r, ok := memtool.AsRefusal(err); !ok || !strings.Contains(r.Text, "the user layer keeps none") {
		t.Fatalf("a credential: %v", err)
	}
	g, done, err := memtool.ForUserLayer(l.Store)
	if err != nil {
		t.Fatal(err)
	}
	done()
	if _, err := os.Stat(g.Root); !os.IsNotExist(err) {
		t.Errorf("done left %s: %v", g.Root, err)
	}
}

func blobOf(t *testing.T, l *userlayer.Layer, p string) staterepo.Hash {
	t.Helper()
	tip, err := l.Repo.Tip(project.GlobalBranch)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := l.Repo.TreeOf(tip)
	if err != nil {
		t.Fatal(err)
	}
	h, err := l.Repo.BlobAt(tree, p)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func atoiT(t *testing.T, s string) int {
	t.Helper()
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			t.Fatalf("not a count: %q", s)
		}
		n = n*10 + int(c-'0')
	}
	return n
}
