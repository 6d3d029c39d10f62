package staterepo

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/planq-dev/planq/internal/testgit"
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
