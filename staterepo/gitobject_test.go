package staterepo

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/memory"
)

func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// Every tree and commit git wrote, decoded by planq and encoded again, is
// the same object: the same bytes, so the same hash. Names that sort
// differently as files and as directories, an executable, a symlink, a
// merge with two parents and a committer in another time zone included.
func TestTreesAndCommitsReadAsGitWroteThem(t *testing.T) {
	testEnv(t)
	dir := t.TempDir()
	gitIn(t, dir, "init", "-q", "-b", "main")
	write := func(p, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"a", "a.b", "a-b", "a0", "a/x", "a.txt", "b/c/d.md", "log/2026-05/pq-1.md"} {
		if p == "a" {
			continue // a directory below
		}
		write(p, "content of "+p+"\n")
	}
	write("run.sh", "#!/bin/sh\n")
	if err := os.Chmod(filepath.Join(dir, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.txt", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	gitIn(t, dir, "add", "-A")
	gitIn(t, dir, "-c", "user.name=Ana Lyst", "-c", "user.email=ana@example.com", "commit", "-q", "-m", "first\n\nwith a body")
	gitIn(t, dir, "checkout", "-q", "-b", "side")
	write("side.md", "side\n")
	gitIn(t, dir, "add", "-A")
	gitIn(t, dir, "commit", "-q", "-m", "side")
	gitIn(t, dir, "checkout", "-q", "main")
	write("main.md", "main\n")
	gitIn(t, dir, "add", "-A")
	gitIn(t, dir, "commit", "-q", "-m", "main")
	cmd := exec.Command("git", "merge", "-q", "--no-edit", "side")
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "GIT_COMMITTER_DATE=2026-03-04T05:06:07+0530")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("merge: %v\n%s", err, out)
	}

	r, err := Open(filepath.Join(dir, ".git"))
	if err != nil {
		t.Fatal(err)
	}
	objects := strings.Fields(gitIn(t, dir, "cat-file", "--batch-all-objects", "--batch-check=%(objecttype):%(objectname)"))
	var trees, commits int
	for _, o := range objects {
		typ, hex, _ := strings.Cut(o, ":")
		h := plumbing.NewHash(hex)
		switch typ {
		case "tree":
			entries, err := r.readTree(h)
			if err != nil {
				t.Fatal(err)
			}
			data, err := encodeTree(entries)
			if err != nil {
				t.Fatal(err)
			}
			if got := plumbing.ComputeHash(plumbing.TreeObject, data); got != h {
				t.Errorf("tree %s encodes again as %s", h, got)
			}
			trees++
		case "commit":
			c, err := r.readCommit(h)
			if err != nil {
				t.Fatal(err)
			}
			if got := plumbing.ComputeHash(plumbing.CommitObject, encodeCommit(c)); got != h {
				t.Errorf("commit %s encodes again as %s:\n%s", h, got, encodeCommit(c))
			}
			commits++
		}
	}
	if trees < 6 || commits != 4 {
		t.Fatalf("%d trees and %d commits read, want at least 6 and 4", trees, commits)
	}
	merge, err := r.Commit(plumbing.NewHash(gitIn(t, dir, "rev-parse", "HEAD")))
	if err != nil {
		t.Fatal(err)
	}
	if len(merge.Parents) != 2 || merge.Subject() != "Merge branch 'side'" {
		t.Errorf("the merge: %d parents, subject %q", len(merge.Parents), merge.Subject())
	}
	if _, offset := merge.Time.Zone(); offset != 5*3600+30*60 || merge.Time.Unix() != time.Date(2026, 3, 4, 5, 6, 7, 0, time.FixedZone("", 5*3600+30*60)).Unix() {
		t.Errorf("the merge's time: %s", merge.Time)
	}
	for p, want := range map[string]string{"b/c/d.md": "content of b/c/d.md\n", "a/x": "content of a/x\n"} {
		got, err := r.ReadFile(merge.Hash, p)
		if err != nil || string(got) != want {
			t.Errorf("ReadFile %s: %q, %v", p, got, err)
		}
	}
	for _, p := range []string{"a", "nope", "a/x/y", "b/c"} {
		if _, err := r.ReadFile(merge.Hash, p); !os.IsNotExist(err) && !strings.Contains(fmt.Sprint(err), "not exist") {
			t.Errorf("ReadFile %s: %v, want does not exist", p, err)
		}
	}
}

// planq's encodings are go-git's, byte for byte, so a commit made by this
// planq has the hash an older one gave it: two machines' first commits of
// global still meet.
func TestEncodingsAreGoGits(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	modes := []filemode.FileMode{filemode.Regular, filemode.Dir, filemode.Executable, filemode.Symlink}
	names := []string{"a", "a.md", "a-b", "a0", "b", "log", "log.md", "z", "ä", "x y"}
	st := memory.NewStorage()
	for round := range 300 {
		var entries []treeEntry
		for _, i := range rng.Perm(len(names))[:rng.IntN(len(names))] {
			var h Hash
			for k := range h {
				h[k] = byte(rng.IntN(256))
			}
			entries = append(entries, treeEntry{Name: names[i], Mode: modes[rng.IntN(len(modes))], Hash: h})
		}
		got, err := encodeTree(entries)
		if err != nil {
			t.Fatal(err)
		}
		var theirs []object.TreeEntry
		for _, e := range entries {
			theirs = append(theirs, object.TreeEntry{Name: e.Name, Mode: e.Mode, Hash: e.Hash})
		}
		slices.SortFunc(theirs, func(a, b object.TreeEntry) int {
			return strings.Compare(treeSortKey(treeEntry{a.Name, a.Mode, a.Hash}), treeSortKey(treeEntry{b.Name, b.Mode, b.Hash}))
		})
		obj := st.NewEncodedObject()
		if err := (&object.Tree{Entries: theirs}).Encode(obj); err != nil {
			t.Fatal(err)
		}
		if want := contentOf(t, obj); !bytes.Equal(got, want) {
			t.Fatalf("round %d: tree\n got  %q\n want %q", round, got, want)
		}
		decoded, err := decodeTree(got)
		if err != nil {
			t.Fatal(err)
		}
		if len(entries) > 0 && !reflect.DeepEqual(decoded, sortedEntries(entries)) {
			t.Fatalf("round %d: decoded %v, want %v", round, decoded, sortedEntries(entries))
		}

		sig := signature{Name: "planq", Email: "planq@localhost", When: time.Unix(rng.Int64N(2e9), 0).In(time.FixedZone("", (rng.IntN(27)-12)*1800))}
		c := commitObject{Tree: entries0(entries), Author: sig, Committer: sig, Message: fmt.Sprintf("round %d\n\nbody\n", round)}
		for range rng.IntN(3) {
			c.Parents = append(c.Parents, entries0(entries))
		}
		theirCommit := &object.Commit{TreeHash: c.Tree, ParentHashes: c.Parents, Message: c.Message,
			Author:    object.Signature{Name: sig.Name, Email: sig.Email, When: sig.When},
			Committer: object.Signature{Name: sig.Name, Email: sig.Email, When: sig.When}}
		obj = st.NewEncodedObject()
		if err := theirCommit.Encode(obj); err != nil {
			t.Fatal(err)
		}
		if got, want := encodeCommit(c), contentOf(t, obj); !bytes.Equal(got, want) {
			t.Fatalf("round %d: commit\n got  %q\n want %q", round, got, want)
		}
	}
	root := encodeCommit(commitObject{Tree: emptyTree, Author: rootSignature, Committer: rootSignature, Message: "planq"})
	if !bytes.Contains(root, []byte("author planq <planq@localhost> 1767225600 +0000\n")) {
		t.Errorf("the root commit's author line changed:\n%s", root)
	}
}

func entries0(entries []treeEntry) Hash {
	if len(entries) == 0 {
		return emptyTree
	}
	return entries[0].Hash
}

func sortedEntries(entries []treeEntry) []treeEntry {
	out := slices.Clone(entries)
	slices.SortFunc(out, func(a, b treeEntry) int { return strings.Compare(treeSortKey(a), treeSortKey(b)) })
	return out
}

func contentOf(t *testing.T, obj plumbing.EncodedObject) []byte {
	t.Helper()
	rd, err := obj.Reader()
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	var b bytes.Buffer
	if _, err := b.ReadFrom(rd); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// A signed commit's signature and other headers planq does not write are
// passed over: its tree, parents and message read all the same.
func TestSignedCommitReads(t *testing.T) {
	r := newRepo(t)
	tip, err := r.Tip("global")
	if err != nil {
		t.Fatal(err)
	}
	c, err := r.Commit(tip)
	if err != nil {
		t.Fatal(err)
	}
	raw := fmt.Sprintf("tree %s\nparent %s\nauthor A <a@b> 1700000000 +0100\ncommitter A <a@b> 1700000000 +0100\nencoding ISO-8859-1\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\nsigned\n", c.Tree, tip)
	got, err := decodeCommit([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	if got.Tree != c.Tree || len(got.Parents) != 1 || got.Parents[0] != tip || got.Message != "signed\n" || got.Committer.When.Unix() != 1700000000 {
		t.Errorf("signed commit read as %+v", got)
	}
}

// Objects cut short or garbled are errors that say so, never a panic or a
// wrong entry.
func TestMalformedObjectsAreErrors(t *testing.T) {
	h := strings.Repeat("ab", 20)
	for name, tree := range map[string]string{
		"no mode":      " a\x00" + strings.Repeat("x", 20),
		"bad mode":     "10x644 a\x00" + strings.Repeat("x", 20),
		"no name end":  "100644 a" + strings.Repeat("x", 20),
		"empty name":   "100644 \x00" + strings.Repeat("x", 20),
		"short hash":   "100644 a\x00" + strings.Repeat("x", 19),
		"mode only":    "100644",
		"second short": "100644 a\x00" + strings.Repeat("x", 20) + "100644 b\x00xx",
	} {
		if entries, err := decodeTree([]byte(tree)); err == nil {
			t.Errorf("tree %s: read as %v", name, entries)
		}
	}
	for name, commit := range map[string]string{
		"no tree":      "parent " + h + "\n\nmsg",
		"short tree":   "tree abc\n\nmsg",
		"bad parent":   "tree " + h + "\nparent " + strings.Repeat("zz", 20) + "\n\nmsg",
		"no message":   "tree " + h + "\nauthor A <a@b> 1 +0000",
		"empty object": "",
	} {
		if c, err := decodeCommit([]byte(commit)); err == nil {
			t.Errorf("commit %s: read as %+v", name, c)
		}
	}
	if _, err := encodeTree([]treeEntry{{Name: "a/b", Mode: filemode.Regular}}); err == nil {
		t.Error("a name with a slash encoded")
	}
	if _, err := encodeTree([]treeEntry{{Name: "a", Mode: filemode.Regular}, {Name: "a", Mode: filemode.Regular}}); err == nil {
		t.Error("a name twice encoded")
	}
}

// Whatever decodes as a tree encodes to bytes that decode to the same
// entries (sorted as git sorts them); nothing panics.
func FuzzDecodeTree(f *testing.F) {
	f.Add([]byte("100644 a\x00" + strings.Repeat("x", 20) + "40000 b\x00" + strings.Repeat("y", 20)))
	f.Add([]byte("120000 link\x00" + strings.Repeat("z", 20)))
	f.Add([]byte("100664 old\x00" + strings.Repeat("w", 20)))
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := decodeTree(data)
		if err != nil {
			return
		}
		again, err := encodeTree(entries)
		if err != nil {
			return // names twice or with a slash: git would not write them
		}
		decoded, err := decodeTree(again)
		if err != nil {
			t.Fatalf("%q encoded as %q, which does not decode: %v", data, again, err)
		}
		if len(entries) > 0 && !reflect.DeepEqual(decoded, sortedEntries(entries)) {
			t.Fatalf("%q: decoded again as %v, want %v", data, decoded, sortedEntries(entries))
		}
	})
}

// Whatever decodes as a commit keeps its tree, parents and message through
// an encoding; nothing panics.
func FuzzDecodeCommit(f *testing.F) {
	h := strings.Repeat("ab", 20)
	f.Add([]byte("tree " + h + "\nparent " + h + "\nauthor A <a@b> 1700000000 +0100\ncommitter A <a@b> 1700000000 -0230\n\nmsg\n"))
	f.Add([]byte("tree " + h + "\ngpgsig x\n y\n\nsigned"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := decodeCommit(data)
		if err != nil {
			return
		}
		again, err := decodeCommit(encodeCommit(c))
		if err != nil {
			t.Fatalf("%q encoded as %q, which does not decode: %v", data, encodeCommit(c), err)
		}
		if again.Tree != c.Tree || !slices.Equal(again.Parents, c.Parents) || again.Message != c.Message {
			t.Fatalf("%q: decoded again as %+v, want %+v", data, again, c)
		}
	})
}

// What planq writes, git checks as sound: trees sorted as git sorts them,
// modes and commits in git's form.
func TestGitFindsPlanqsObjectsSound(t *testing.T) {
	r := newRepo(t)
	tip, err := r.Tip("global")
	if err != nil {
		t.Fatal(err)
	}
	base, err := r.TreeOf(tip)
	if err != nil {
		t.Fatal(err)
	}
	edits := map[string]Hash{}
	for _, p := range []string{"a", "a.md", "a-b/x", "a/b/c.md", "log/2026-05/pq-1.md", "log.md"} {
		h, err := r.WriteBlob([]byte(p + "\n"))
		if err != nil {
			t.Fatal(err)
		}
		edits[p] = h
	}
	tree, err := r.EditTree(base, edits)
	if err != nil {
		t.Fatal(err)
	}
	commit, err := r.WriteCommit(tree, []Hash{tip}, "planq: records\n\nmore lines\n")
	if err != nil {
		t.Fatal(err)
	}
	gitIn(t, r.Path, "update-ref", "refs/heads/checked", commit.String())
	gitIn(t, r.Path, "fsck", "--strict", "--no-dangling")
	if got := gitIn(t, r.Path, "show", "-s", "--format=%s|%T|%P", commit.String()); got != "planq: records|"+tree.String()+"|"+tip.String() {
		t.Errorf("git reads the commit as %q", got)
	}
}
