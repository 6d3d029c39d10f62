package engine

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testrecords"
	"github.com/planq-dev/planq/project"
)

// TestDirSizeCountsAndKeepsTheCount: a domain's directory is counted from
// git once, then from the count kept by its tree's hash; a damaged count is
// counted again, and a directory or branch that does not exist is empty.
func TestDirSizeCountsAndKeepsTheCount(t *testing.T) {
	recs := testrecords.Samples(t)
	files := testrecords.Rendered(t, recs)
	extra := *recs[1] // a second learning in the same domain
	extra.Body, extra.ID = "another ci learning", changelog.IDPrefix+"00000000ff"
	data, err := changelog.Render(&extra)
	if err != nil {
		t.Fatal(err)
	}
	files[changelog.RecordPath(&extra)] = data
	repo := testrecords.RepoWith(t, files)
	cacheDir := t.TempDir()
	rd := open(repo, cacheDir)
	n, err := rd.DirSize(project.GlobalBranch, "learnings", "ci")
	if err != nil || n != 2 {
		t.Fatalf("learnings/ci: %d, %v; want 2", n, err)
	}
	kept, _ := filepath.Glob(filepath.Join(cacheDir, "counts", "*"))
	if len(kept) != 1 {
		t.Fatalf("%d counts kept, want 1", len(kept))
	}
	if err := os.WriteFile(kept[0], []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	if n, err := open(repo, cacheDir).DirSize(project.GlobalBranch, "learnings", "ci"); err != nil || n != 2 {
		t.Errorf("over a damaged count: %d, %v; want 2", n, err)
	}
	if err := os.WriteFile(kept[0], []byte("7\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if n, _ := open(repo, cacheDir).DirSize(project.GlobalBranch, "learnings", "ci"); n != 7 {
		t.Errorf("a kept count was not read: %d, want the kept 7", n)
	}
	for _, c := range []struct{ branch, sub string }{{project.GlobalBranch, "nowhere"}, {"agent-nobody", "ci"}} {
		if n, err := rd.DirSize(c.branch, "learnings", c.sub); err != nil || n != 0 {
			t.Errorf("%s learnings/%s: %d, %v; want 0", c.branch, c.sub, n, err)
		}
	}
}
