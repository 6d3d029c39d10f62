package staterepo

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/planq-dev/planq/internal/testkit/testgit"
)

// TestBlobsAreGitsOwn: Blobs answers each path with the blob git has for it
// at the revision, takes paths literally (a file named like a glob), leaves
// out what the revision does not hold, and answers the same when it lists
// the whole tree for many paths.
func TestBlobsAreGitsOwn(t *testing.T) {
	testEnv(t)
	dir := t.TempDir()
	testgit.Run(t, dir, "init", "-q")
	files := map[string]string{"a.go": "package a\n", "sub/b.go": "package b\n", "glob*.go": "star\n", "globX.go": "x\n"}
	for i := range 300 {
		files[fmt.Sprintf("many/f%03d.txt", i)] = fmt.Sprint(i)
	}
	for p, content := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	testgit.Run(t, dir, "add", "-A")
	testgit.Run(t, dir, "commit", "-q", "-m", "files")
	code := OpenCode(dir)
	ctx := context.Background()
	got, err := code.Blobs(ctx, "HEAD", []string{"a.go", "sub/b.go", "glob*.go", "gone.go"})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"a.go", "sub/b.go", "glob*.go"} {
		if want := testgit.Run(t, dir, "rev-parse", "HEAD:"+p); got[p] != want {
			t.Errorf("%s: %q, want git's %q", p, got[p], want)
		}
	}
	if _, ok := got["globX.go"]; ok || len(got) != 3 {
		t.Errorf("a glob matched, or a missing path answered: %v", got)
	}
	var many []string
	for i := range 300 {
		many = append(many, fmt.Sprintf("many/f%03d.txt", i))
	}
	all, err := code.Blobs(ctx, "HEAD", append(many, "a.go"))
	if err != nil || len(all) != 301 || all["a.go"] != got["a.go"] || all["many/f007.txt"] != testgit.Run(t, dir, "rev-parse", "HEAD:many/f007.txt") {
		t.Errorf("many paths: %d answers, %v", len(all), err)
	}
	if _, err := code.Blobs(ctx, "no-such-rev", []string{"a.go"}); err == nil {
		t.Error("a revision that does not exist answered")
	}
}

// TestFetchSaysWhenALockStopsItUpdatingARef: a lock file left on the
// tracking ref (a git killed mid-fetch) must stop the fetch with an error
// naming it, even when another refspec is rejected as not a fast-forward;
// and StaleLocks finds it, under refs/planq as anywhere.
func TestFetchSaysWhenALockStopsItUpdatingARef(t *testing.T) {
	testEnv(t)
	ctx := context.Background()
	root := t.TempDir()
	remote, work, local := filepath.Join(root, "remote.git"), filepath.Join(root, "w"), filepath.Join(root, "local.git")
	testgit.Run(t, root, "init", "-q", "--bare", remote)
	testgit.Run(t, root, "init", "-q", "--bare", local)
	testgit.Run(t, root, "init", "-q", work)
	commit := func(msg string) string {
		testgit.Run(t, work, "commit", "-q", "--allow-empty", "-m", msg)
		testgit.Run(t, work, "push", "-q", "-f", remote, "HEAD:refs/planq/global")
		return testgit.Run(t, work, "rev-parse", "HEAD")
	}
	first := commit("first")
	repo, err := Open(local)
	if err != nil {
		t.Fatal(err)
	}
	specs := []string{"+refs/planq/global:refs/planq/remotes/origin/global", "refs/planq/global:refs/heads/global"}
	if _, err := repo.Fetch(ctx, remote, specs...); err != nil {
		t.Fatal(err)
	}
	// Local global diverges, so its refspec is rejected, and the remote moves on.
	testgit.Run(t, work, "checkout", "-q", "-b", "side", first)
	testgit.Run(t, work, "commit", "-q", "--allow-empty", "-m", "local")
	testgit.Run(t, work, "push", "-q", local, "HEAD:refs/heads/global", "-f")
	testgit.Run(t, work, "checkout", "-q", "-")
	commit("second")
	lock := filepath.Join(local, "refs", "planq", "remotes", "origin", "global.lock")
	if err := os.WriteFile(lock, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = repo.Fetch(ctx, remote, specs...)
	if err == nil || !strings.Contains(err.Error(), "global.lock") {
		t.Fatalf("fetch with the tracking ref locked: %v, want an error naming the lock", err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(lock, old, old); err != nil {
		t.Fatal(err)
	}
	if locks, err := StaleLocks(local, time.Minute); err != nil || len(locks) != 1 || locks[0] != lock {
		t.Errorf("stale locks: %v (%v), want %s", locks, err, lock)
	}
	if err := os.Remove(lock); err != nil {
		t.Fatal(err)
	}
	if res, err := repo.Fetch(ctx, remote, specs...); err != nil || len(res.Rejected) != 1 {
		t.Errorf("fetch once the lock is gone: %+v %v, want global's refspec rejected alone", res, err)
	}
}

// TestAddedIsEachFilesFirstCommit: the author's time of the commit that
// added each file under the directory, not of a later change, nor of a
// file outside it; a name with a space or starting with '@' is read whole.
func TestAddedIsEachFilesFirstCommit(t *testing.T) {
	testEnv(t)
	dir := t.TempDir()
	testgit.Run(t, dir, "init", "-q")
	commit := func(when string, files ...string) {
		for _, f := range files {
			full := filepath.Join(dir, filepath.FromSlash(f))
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, []byte(when+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		testgit.Run(t, dir, "add", "-A")
		testgit.RunEnv(t, append(os.Environ(), "GIT_AUTHOR_DATE="+when), dir, "commit", "-q", "-m", when)
	}
	commit("2021-01-01T10:00:00Z", "adr/0001 first.md", "README.md")
	commit("2022-02-02T10:00:00Z", "adr/@0002.md", "adr/0001 first.md")
	got, err := OpenCode(dir).Added(t.Context(), "adr")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]time.Time{"adr/0001 first.md": time.Date(2021, 1, 1, 10, 0, 0, 0, time.UTC), "adr/@0002.md": time.Date(2022, 2, 2, 10, 0, 0, 0, time.UTC)}
	if len(got) != len(want) || !got["adr/0001 first.md"].Equal(want["adr/0001 first.md"]) || !got["adr/@0002.md"].Equal(want["adr/@0002.md"]) {
		t.Errorf("got %v, want %v", got, want)
	}
}
