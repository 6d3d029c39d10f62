package staterepo

import (
	"context"
	"fmt"
	"maps"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/project"
)

// testEnv isolates git from the user's configuration.
func testEnv(t *testing.T) { testgit.Isolate(t) }

func newRepo(t *testing.T) *Repo {
	t.Helper()
	testEnv(t)
	path := filepath.Join(t.TempDir(), "state.git")
	created, err := Init(context.Background(), path, map[string][]byte{"README.md": []byte("hi\n"), "log/README.md": []byte("log\n")})
	if err != nil || !created {
		t.Fatalf("Init: created=%v err=%v", created, err)
	}
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestEditTreeMatchesGit edits trees at random and checks every result
// against the tree git itself writes from an index holding the same files.
func TestEditTreeMatchesGit(t *testing.T) {
	r := newRepo(t)
	rng := rand.New(rand.NewSource(1))
	files := map[string]plumbing.Hash{}
	tree := plumbing.ZeroHash
	names := []string{"a", "b", "a.md", "a-b", "a0", "z", "log", "log.md"}
	for round := 0; round < 40; round++ {
		edits := map[string]plumbing.Hash{}
		for i := 0; i < 1+rng.Intn(6); i++ {
			depth := 1 + rng.Intn(3)
			parts := make([]string, depth)
			for j := range parts {
				parts[j] = names[rng.Intn(len(names))]
			}
			p := strings.Join(parts, "/")
			if conflicts(files, edits, p) {
				continue
			}
			if _, ok := files[p]; ok && rng.Intn(3) == 0 {
				edits[p] = plumbing.ZeroHash
				continue
			}
			h, err := r.WriteBlob([]byte(fmt.Sprintf("%s %d %d", p, round, i)))
			if err != nil {
				t.Fatal(err)
			}
			edits[p] = h
		}
		var err error
		if tree, err = r.EditTree(tree, edits); err != nil {
			t.Fatal(err)
		}
		for p, h := range edits {
			if h.IsZero() {
				delete(files, p)
			} else {
				files[p] = h
			}
		}
		if want := gitTree(t, r, files); tree.String() != want && (!tree.IsZero() || len(files) != 0) {
			t.Fatalf("round %d: EditTree = %s, git write-tree = %s", round, tree, want)
		}
	}
}

// conflicts reports whether p would be both a file and a directory.
func conflicts(files, edits map[string]plumbing.Hash, p string) bool {
	for _, m := range []map[string]plumbing.Hash{files, edits} {
		for q := range m {
			if strings.HasPrefix(q, p+"/") || strings.HasPrefix(p, q+"/") {
				return true
			}
		}
	}
	return false
}

func gitTree(t *testing.T, r *Repo, files map[string]plumbing.Hash) string {
	t.Helper()
	index := filepath.Join(t.TempDir(), "index")
	var input strings.Builder
	for _, p := range slices.Sorted(maps.Keys(files)) {
		fmt.Fprintf(&input, "100644 %s\t%s\n", files[p], p)
	}
	cmd := "git update-index --index-info && git write-tree"
	out, err := runShell(r.Path, index, cmd, input.String())
	if err != nil {
		t.Fatalf("%s: %v", cmd, err)
	}
	return strings.TrimSpace(out)
}

func TestCommitFilesKeepsWorktreeCleanAndBuildsOnTip(t *testing.T) {
	r := newRepo(t)
	ctx := context.Background()
	tip, _ := r.Tip(project.GlobalBranch)
	if err := r.CreateRef(ctx, "refs/heads/agent-a", tip, "test"); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "wt")
	if err := r.AddWorktree(ctx, dir, "agent-a"); err != nil {
		t.Fatal(err)
	}
	wt := r.OpenWorktree(dir)
	for i := 0; i < 3; i++ {
		p := filepath.Join("log", "2026-11", fmt.Sprintf("pq-%010d.md", i))
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(fmt.Sprintf("record %d\n", i)), 0o644); err != nil {
			t.Fatal(err)
		}
		before, _ := r.Tip("agent-a")
		commit, err := wt.CommitFiles(ctx, []string{p}, fmt.Sprintf("record %d\n", i))
		if err != nil {
			t.Fatal(err)
		}
		if got := testgit.Run(t, dir, "rev-parse", "HEAD^"); got != before.String() {
			t.Fatalf("commit %d's parent is %s, want the previous tip %s", i, got, before)
		}
		if got := testgit.Run(t, dir, "rev-parse", "HEAD"); got != commit.String() {
			t.Fatalf("HEAD = %s, want %s", got, commit)
		}
		if st := testgit.Run(t, dir, "status", "--porcelain"); st != "" {
			t.Fatalf("worktree not clean after commit %d:\n%s", i, st)
		}
		if files := testgit.Run(t, dir, "show", "--name-only", "--format=", "HEAD"); files != filepath.ToSlash(p) {
			t.Fatalf("commit %d touched %q, want only %s", i, files, p)
		}
	}
	// A deletion is a commit too.
	gone := "log/2026-11/pq-0000000000.md"
	if err := os.Remove(filepath.Join(dir, gone)); err != nil {
		t.Fatal(err)
	}
	if _, err := wt.CommitFiles(ctx, []string{gone}, "delete\n"); err != nil {
		t.Fatal(err)
	}
	if st := testgit.Run(t, dir, "status", "--porcelain"); st != "" {
		t.Fatalf("worktree not clean after a deletion:\n%s", st)
	}
	if out := testgit.Run(t, dir, "ls-tree", "-r", "--name-only", "HEAD", "log/2026-11"); strings.Contains(out, "pq-0000000000") {
		t.Fatalf("deleted file still in HEAD:\n%s", out)
	}
	testgit.Run(t, r.Path, "fsck", "--no-progress")
}

func TestConcurrentInitMakesOneGlobal(t *testing.T) {
	testEnv(t)
	path := filepath.Join(t.TempDir(), "state.git")
	var wg sync.WaitGroup
	created := make([]bool, 6)
	errs := make([]error, 6)
	for i := range created {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			created[i], errs[i] = Init(context.Background(), path, map[string][]byte{"README.md": []byte(fmt.Sprintf("from %d\n", i))})
		}(i)
	}
	wg.Wait()
	n := 0
	for i := range created {
		if errs[i] != nil {
			t.Errorf("Init %d: %v", i, errs[i])
		}
		if created[i] {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d callers created global, want exactly 1", n)
	}
	if count := testgit.Run(t, path, "rev-list", "--count", project.GlobalBranch); count != "1" {
		t.Fatalf("global has %s commits, want 1", count)
	}
}

func TestWorktreesReportsMissingDirectories(t *testing.T) {
	r := newRepo(t)
	ctx := context.Background()
	tip, _ := r.Tip(project.GlobalBranch)
	for _, b := range []string{"agent-x", "agent-y"} {
		if err := r.CreateRef(ctx, "refs/heads/"+b, tip, "test"); err != nil {
			t.Fatal(err)
		}
	}
	base := t.TempDir()
	for _, b := range []string{"agent-x", "agent-y"} {
		if err := r.AddWorktree(ctx, filepath.Join(base, b), b); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.RemoveAll(filepath.Join(base, "agent-y")); err != nil {
		t.Fatal(err)
	}
	wts, err := r.Worktrees()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, wt := range wts {
		got[wt.Branch] = wt.Missing
	}
	if len(got) != 2 || got["agent-x"] || !got["agent-y"] {
		t.Fatalf("Worktrees missing flags = %v, want agent-x present, agent-y missing", got)
	}
	if err := r.AddWorktree(ctx, filepath.Join(base, "again"), "agent-x"); err == nil {
		t.Fatal("a branch checked out twice was accepted")
	}
}

// TestBranchesSkipLockFilesAndReadPackedRefs lists branches while git is
// updating one (its empty lock file beside it) and after git packed refs.
func TestBranchesSkipLockFilesAndReadPackedRefs(t *testing.T) {
	r := newRepo(t)
	ctx := context.Background()
	tip, err := r.Tip(project.GlobalBranch)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []string{"agent-a", "agent-b"} {
		if err := r.CreateRef(ctx, project.BranchRef(b), tip, "test"); err != nil {
			t.Fatal(err)
		}
	}
	testgit.Run(t, r.Path, "pack-refs", "--all")
	if err := r.CreateRef(ctx, project.BranchRef("agent-c"), tip, "test"); err != nil {
		t.Fatal(err)
	}
	// What a concurrent update-ref has made for an instant.
	if err := os.WriteFile(filepath.Join(r.Path, "refs", "heads", "agent-a.lock"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := r.Branches(project.AgentBranchPrefix)
	if err != nil {
		t.Fatalf("listing branches beside a lock file: %v", err)
	}
	for _, b := range []string{"agent-a", "agent-b", "agent-c"} {
		if got[b] != tip {
			t.Errorf("branch %s: got %v, want %v (all: %v)", b, got[b], tip, got)
		}
	}
	if len(got) != 3 {
		t.Errorf("want 3 agent branches, got %v", got)
	}
}

// TestLooseObjectsReadAsGitWritesThem: the blobs, trees and commits planq
// writes itself, compressed at zlib's best speed, are objects git reads and
// fsck accepts, with the hashes git gives the same content.
func TestLooseObjectsReadAsGitWritesThem(t *testing.T) {
	r := newRepo(t)
	blob, err := r.WriteBlob([]byte("a record\n"))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "record.md")
	if err := os.WriteFile(file, []byte("a record\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if want := testgit.Run(t, r.Path, "hash-object", file); want != blob.String() {
		t.Errorf("blob %s, git hashes the same content as %s", blob, want)
	}
	tree, err := r.EditTree(ZeroHash, map[string]Hash{"log/2026-11/pq-0000000001.md": blob})
	if err != nil {
		t.Fatal(err)
	}
	commit, err := r.WriteCommit(tree, nil, "one record")
	if err != nil {
		t.Fatal(err)
	}
	if got := testgit.Run(t, r.Path, "cat-file", "-p", blob.String()); got != "a record" {
		t.Errorf("git reads the blob as %q", got)
	}
	if got := testgit.Run(t, r.Path, "rev-parse", commit.String()+":log/2026-11/pq-0000000001.md"); got != blob.String() {
		t.Errorf("git finds %s in the commit's tree, want %s", got, blob)
	}
	testgit.Run(t, r.Path, "update-ref", "refs/heads/check", commit.String())
	testgit.Run(t, r.Path, "fsck", "--strict", "--no-dangling")
	// Written again, the same object is left as it is.
	again, err := r.WriteBlob([]byte("a record\n"))
	if err != nil || again != blob {
		t.Errorf("writing the blob again: %s, %v", again, err)
	}
}
