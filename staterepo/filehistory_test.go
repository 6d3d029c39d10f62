package staterepo

import (
	"context"
	"testing"

	"github.com/planq-dev/planq/project"
)

// TestFileHistoryTellsMarkedCommitsFromOthers: each change to a file
// under the directory, newest first, with its blob (zero for a deletion)
// and the trailer's value of the commit that made it; a file elsewhere and
// a merge are not listed.
func TestFileHistoryTellsMarkedCommitsFromOthers(t *testing.T) {
	r := newRepo(t)
	ctx := context.Background()
	tip, err := r.Tip(project.GlobalBranch)
	if err != nil {
		t.Fatal(err)
	}
	commit := func(parents []Hash, message string, files map[string]string) Hash {
		t.Helper()
		tree, err := r.TreeOf(parents[0])
		if err != nil {
			t.Fatal(err)
		}
		edits := map[string]Hash{}
		for p, data := range files {
			if data == "" {
				edits[p] = ZeroHash
				continue
			}
			if edits[p], err = r.WriteBlob([]byte(data)); err != nil {
				t.Fatal(err)
			}
		}
		tree, err = r.EditTree(tree, edits)
		if err != nil {
			t.Fatal(err)
		}
		c, err := r.WriteCommit(tree, parents, message)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	one := commit([]Hash{tip}, "kb: add\n\nPlanq-Kb: update\n", map[string]string{"knowledge/a/x.md": "one\n", "knowledge/a/y.md": "y\n", "other.md": "o\n"})
	two := commit([]Hash{one}, "a person's edit\n", map[string]string{"knowledge/a/x.md": "two\n"})
	side := commit([]Hash{one}, "elsewhere\n", map[string]string{"other.md": "p\n"})
	merged := commit([]Hash{two, side}, "merge\n", map[string]string{"other.md": "p\n"})
	three := commit([]Hash{merged}, "kb: delete\n\nPlanq-Kb: delete\n", map[string]string{"knowledge/a/y.md": ""})

	got, err := r.FileHistory(ctx, three, "knowledge", "Planq-Kb")
	if err != nil {
		t.Fatal(err)
	}
	blob := func(s string) Hash { return hashOfBlob(t, r, s) }
	want := []FileChange{
		{Commit: three, Path: "knowledge/a/y.md", Blob: ZeroHash, Trailer: "delete"},
		{Commit: two, Path: "knowledge/a/x.md", Blob: blob("two\n")},
		{Commit: one, Path: "knowledge/a/x.md", Blob: blob("one\n"), Trailer: "update"},
		{Commit: one, Path: "knowledge/a/y.md", Blob: blob("y\n"), Trailer: "update"},
	}
	if len(got) != len(want) {
		t.Fatalf("history: %+v\nwant %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("change %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if _, err := r.FileHistory(ctx, three, "knowledge", "bad key"); err == nil {
		t.Error("a trailer key with a space was taken")
	}
}

func hashOfBlob(t *testing.T, r *Repo, s string) Hash {
	t.Helper()
	h, err := r.WriteBlob([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return h
}
