package staterepo

import (
	"bytes"
	"cmp"
	"errors"
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
	"github.com/planq-dev/planq/internal/testkit/testgit"
)

// rawObject is the content of object h as git stores it.
func rawObject(tb testing.TB, dir, typ, h string) []byte {
	tb.Helper()
	cmd := exec.Command("git", "cat-file", typ, h)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("git cat-file %s %s: %v", typ, h, err)
	}
	return out
}

// gitObjects lists every object of the repository at dir by type.
func gitObjects(tb testing.TB, dir string) map[string][]string {
	tb.Helper()
	out := map[string][]string{}
	for _, o := range strings.Fields(testgit.Run(tb, dir, "cat-file", "--batch-all-objects", "--batch-check=%(objecttype):%(objectname)")) {
		typ, hex, _ := strings.Cut(o, ":")
		out[typ] = append(out[typ], hex)
	}
	return out
}

// gitWrittenRepo has git write a repository (its .git is returned as dir)
// whose trees hold what planq's codec must get right: names that sort one
// way as files and another as directories ("a/" after "a.txt", "f/a"
// before "f/a-b"), an executable, a symlink, a submodule, nesting; and
// whose history holds a merge with two parents and a committer in another
// time zone.
func gitWrittenRepo(tb testing.TB) string {
	tb.Helper()
	testgit.Isolate(tb)
	dir := tb.TempDir()
	testgit.Run(tb, dir, "init", "-q", "-b", "main")
	write := func(p, content string) {
		tb.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	for _, p := range []string{"a/x", "a.txt", "a.b", "a-b", "a0", "b/c/d.md", "log/2026-05/pq-1.md",
		"f/a", "f/a.b", "f/a-b", "f/a.d/x", "f/a0", "f/ä"} {
		write(p, "content of "+p+"\n")
	}
	write("run.sh", "#!/bin/sh\n")
	if err := os.Chmod(filepath.Join(dir, "run.sh"), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.Symlink("a.txt", filepath.Join(dir, "link")); err != nil {
		tb.Fatal(err)
	}
	testgit.Run(tb, dir, "add", "-A")
	testgit.Run(tb, dir, "update-index", "--add", "--cacheinfo", "160000,"+strings.Repeat("12", 20)+",sub")
	testgit.Run(tb, dir, "-c", "user.name=Ana Lyst", "-c", "user.email=ana@example.com", "commit", "-q", "-m", "first\n\nwith a body")
	testgit.Run(tb, dir, "checkout", "-q", "-b", "side")
	write("side.md", "side\n")
	testgit.Run(tb, dir, "add", "-A")
	testgit.Run(tb, dir, "commit", "-q", "-m", "side")
	testgit.Run(tb, dir, "checkout", "-q", "main")
	write("main.md", "main\n")
	testgit.Run(tb, dir, "add", "-A")
	testgit.Run(tb, dir, "commit", "-q", "-m", "main")
	env := append(os.Environ(), "GIT_COMMITTER_DATE=2026-03-04T05:06:07+0530")
	testgit.RunEnv(tb, env, dir, "merge", "-q", "--no-edit", "side")
	return filepath.Join(dir, ".git")
}

// Every tree and commit git wrote, decoded by planq and encoded again, is
// the same object: the same bytes, so the same hash.
func TestTreesAndCommitsReadAsGitWroteThem(t *testing.T) {
	dir := gitWrittenRepo(t)
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	objects := gitObjects(t, dir)
	for _, hex := range objects["tree"] {
		h := plumbing.NewHash(hex)
		entries, err := r.readTree(h)
		if err != nil {
			t.Fatal(err)
		}
		data, err := encodeTree(entries)
		if err != nil {
			t.Fatal(err)
		}
		if want := rawObject(t, dir, "tree", hex); !bytes.Equal(data, want) {
			t.Errorf("tree %s encodes again as\n %q\nwant\n %q", h, data, want)
		}
		if got := plumbing.ComputeHash(plumbing.TreeObject, data); got != h {
			t.Errorf("tree %s encodes again as %s", h, got)
		}
	}
	for _, hex := range objects["commit"] {
		h := plumbing.NewHash(hex)
		c, err := r.readCommit(h)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := encodeCommit(c), rawObject(t, dir, "commit", hex); !bytes.Equal(got, want) {
			t.Errorf("commit %s encodes again as\n%s\nwant\n%s", h, got, want)
		}
	}
	if trees, commits := len(objects["tree"]), len(objects["commit"]); trees < 10 || commits != 4 {
		t.Fatalf("%d trees and %d commits read, want at least 10 and 4", trees, commits)
	}

	// The entries themselves, not only their bytes, are what git sees.
	head := plumbing.NewHash(testgit.Run(t, dir, "rev-parse", "HEAD"))
	merge, err := r.Commit(head)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := r.readTree(merge.Tree)
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, e := range entries {
		typ := map[filemode.FileMode]string{filemode.Dir: "tree", filemode.Submodule: "commit"}[e.Mode]
		listed = append(listed, fmt.Sprintf("%06o %s %s\t%s", uint32(e.Mode), cmp.Or(typ, "blob"), e.Hash, e.Name))
	}
	if got, want := strings.Join(listed, "\n"), testgit.Run(t, dir, "ls-tree", "HEAD"); got != want {
		t.Errorf("the top tree reads as\n%s\ngit lists\n%s", got, want)
	}
	if got := testgit.Run(t, dir, "show", "-s", "--format=%T %P", "HEAD"); got != merge.Tree.String()+" "+merge.Parents[0].String()+" "+merge.Parents[1].String() {
		t.Errorf("the merge: tree %s, parents %v; git says %s", merge.Tree, merge.Parents, got)
	}
	if merge.Subject() != "Merge branch 'side'" {
		t.Errorf("the merge's subject: %q", merge.Subject())
	}
	if _, offset := merge.Time.Zone(); offset != 5*3600+30*60 || merge.Time.Unix() != time.Date(2026, 3, 4, 5, 6, 7, 0, time.FixedZone("", 5*3600+30*60)).Unix() {
		t.Errorf("the merge's time: %s", merge.Time)
	}
	first, err := r.readCommit(plumbing.NewHash(testgit.Run(t, dir, "rev-list", "--max-parents=0", "HEAD")))
	if err != nil {
		t.Fatal(err)
	}
	if a := first.Author; a.Name != "Ana Lyst" || a.Email != "ana@example.com" || first.Message != "first\n\nwith a body\n" {
		t.Errorf("the first commit reads as %+v", first)
	}
	for p, want := range map[string]string{"b/c/d.md": "content of b/c/d.md\n", "a/x": "content of a/x\n", "f/a.d/x": "content of f/a.d/x\n", "link": "a.txt"} {
		got, err := r.ReadFile(merge.Hash, p)
		if err != nil || string(got) != want {
			t.Errorf("ReadFile %s: %q, %v", p, got, err)
		}
	}
	for _, p := range []string{"a", "nope", "a/x/y", "b/c", "b/nope/d.md", "f/a/x"} {
		if _, err := r.ReadFile(merge.Hash, p); !errors.Is(err, os.ErrNotExist) {
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

// signedCommit is a commit as git writes one that is signed and merges a
// signed tag: headers planq does not write, after the committer, each
// continued on lines that start with a space (one of them only a space,
// one that would read as a parent were the space dropped).
func signedCommit(tree, parent1, parent2, tagged string) string {
	return "tree " + tree + "\nparent " + parent1 + "\nparent " + parent2 +
		"\nauthor A U Thor <a@example.com> 1700000000 +0100\ncommitter C O Mitter <c@example.com> 1700000100 -0230\nencoding ISO-8859-1" +
		"\nmergetag object " + parent2 + "\n type commit\n tag v1\n tagger T <t@example.com> 1700000000 +0000\n \n v1, whose\n parent " + tagged +
		"\n -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----" +
		"\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEEx\n =abcd\n -----END PGP SIGNATURE-----\n\nsigned merge\n\nbody\n"
}

// A signed commit's signature, a merged tag and an encoding are passed
// over: its tree, parents, people and message read as git reads them.
func TestSignedCommitReads(t *testing.T) {
	dir := gitWrittenRepo(t)
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	head := testgit.Run(t, dir, "rev-parse", "HEAD")
	parents := strings.Fields(testgit.Run(t, dir, "rev-parse", "HEAD^1", "HEAD^2", "HEAD^{tree}", "HEAD:a.txt"))
	raw := signedCommit(parents[2], head, parents[0], parents[3])
	cmd := exec.Command("git", "hash-object", "-t", "commit", "-w", "--stdin")
	cmd.Dir, cmd.Stdin = dir, strings.NewReader(raw)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git hash-object: %v\n%s", err, out)
	}
	signed := strings.TrimSpace(string(out))
	testgit.Run(t, dir, "update-ref", "refs/heads/signed", signed)
	testgit.Run(t, dir, "fsck", "--strict", "--no-dangling")

	c, err := r.Commit(plumbing.NewHash(signed))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Fields(testgit.Run(t, dir, "show", "-s", "--format=%T %P", signed))
	got := []string{c.Tree.String()}
	for _, p := range c.Parents {
		got = append(got, p.String())
	}
	if !slices.Equal(got, want) {
		t.Errorf("the signed commit's tree and parents read as %v, git says %v", got, want)
	}
	if c.Message != "signed merge\n\nbody\n" || c.Time.Unix() != 1700000100 {
		t.Errorf("the signed commit reads as %+v", c)
	}
	if _, offset := c.Time.Zone(); offset != -(2*3600 + 30*60) {
		t.Errorf("the signed commit's time: %s", c.Time)
	}
	whole, err := r.readCommit(c.Hash)
	if err != nil {
		t.Fatal(err)
	}
	if a := whole.Author; a.Name != "A U Thor" || a.Email != "a@example.com" || a.When.Unix() != 1700000000 || whole.Committer.Name != "C O Mitter" {
		t.Errorf("the signed commit's people: %+v, %+v", whole.Author, whole.Committer)
	}
	if data, err := r.ReadFile(c.Hash, "b/c/d.md"); err != nil || string(data) != "content of b/c/d.md\n" {
		t.Errorf("ReadFile through the signed commit: %q, %v", data, err)
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
		"not octal":    "100648 a\x00" + strings.Repeat("x", 20),
		"mode too big": "1000000000000 a\x00" + strings.Repeat("x", 20),
		"signed mode":  "+100644 a\x00" + strings.Repeat("x", 20),
	} {
		if entries, err := decodeTree([]byte(tree)); err == nil {
			t.Errorf("tree %s: read as %v", name, entries)
		}
	}
	for name, commit := range map[string]string{
		"no tree":      "parent " + h + "\n\nmsg",
		"short tree":   "tree abc\n\nmsg",
		"bad parent":   "tree " + h + "\nparent " + strings.Repeat("zz", 20) + "\n\nmsg",
		"short parent": "tree " + h + "\nparent " + h[:39] + "\n\nmsg",
		"tree junk":    "tree " + h + " " + h + "\n\nmsg",
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
	for name, entries := range map[string][]treeEntry{
		"a name twice":            {{Name: "a", Mode: filemode.Regular}, {Name: "a", Mode: filemode.Regular}},
		"a file and a dir as one": {{Name: "a", Mode: filemode.Regular}, {Name: "a.md", Mode: filemode.Regular}, {Name: "a", Mode: filemode.Dir}},
		"no mode":                 {{Name: "a"}},
		"a group-writable file":   {{Name: "a", Mode: filemode.Deprecated}},
	} {
		if data, err := encodeTree(entries); err == nil {
			t.Errorf("%s: encoded as %q", name, data)
		}
	}
}

// A malformed object in the store is an error that names it, wherever it
// is met: never a panic, and never "does not exist", which would let a
// caller write over what it could not read.
func TestMalformedObjectsInTheStore(t *testing.T) {
	dir := gitWrittenRepo(t)
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	literally := func(typ, content string) string {
		t.Helper()
		cmd := exec.Command("git", "hash-object", "--literally", "-t", typ, "-w", "--stdin")
		cmd.Dir, cmd.Stdin = dir, strings.NewReader(content)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git hash-object: %v\n%s", err, out)
		}
		return strings.TrimSpace(string(out))
	}
	id := func(hex string) string { h := plumbing.NewHash(hex); return string(h[:]) }
	blob := testgit.Run(t, dir, "rev-parse", "HEAD:a.txt")
	bad := literally("tree", "100644 x\x00"+id(blob)[:12])
	// A sound top tree whose subdirectory d is the bad tree.
	top := literally("tree", "100644 a\x00"+id(blob)+"40000 d\x00"+id(bad))
	sig := "author A <a@b> 1700000000 +0000\ncommitter A <a@b> 1700000000 +0000\n\nmsg\n"
	topCommit := plumbing.NewHash(literally("commit", "tree "+top+"\n"+sig))
	badCommit := plumbing.NewHash(literally("commit", "tree "+bad+"\n"+sig))
	check := func(what string, err error, bad string) {
		t.Helper()
		if err == nil || !errors.Is(err, errMalformed) || errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "failed to read tree "+bad+": ") {
			t.Errorf("%s: %v, want failed to read tree %s: malformed object", what, err, bad)
		}
	}
	_, err = r.ReadFile(topCommit, "d/x")
	check("ReadFile d/x", err, bad)
	_, err = r.ReadFile(badCommit, "x")
	check("ReadFile x", err, bad)
	_, err = r.BlobAt(plumbing.NewHash(top), "d/x")
	check("BlobAt", err, bad)
	_, err = r.TreeEntries(plumbing.NewHash(bad))
	check("TreeEntries", err, bad)
	_, err = r.WalkTree(plumbing.NewHash(top), nil)
	check("WalkTree", err, bad)
	_, err = r.EditTree(plumbing.NewHash(top), map[string]Hash{"d/y": plumbing.NewHash(blob)})
	check("EditTree", err, bad)
	if data, err := r.ReadFile(topCommit, "a"); err != nil || len(data) == 0 {
		t.Errorf("ReadFile beside the bad tree: %q, %v", data, err)
	}

	garbled := literally("commit", "tree "+top+"\nparent "+strings.Repeat("zz", 20)+"\n"+sig)
	if _, err := r.Commit(plumbing.NewHash(garbled)); err == nil || !errors.Is(err, errMalformed) || !strings.Contains(err.Error(), "failed to read commit "+garbled+": ") {
		t.Errorf("Commit of a garbled commit: %v", err)
	}
}

// seedWithGitObjects adds every object of type typ of a repository git
// wrote (and, for commits, a signed one) to f's corpus, so that fuzzing
// starts from real objects.
func seedWithGitObjects(f *testing.F, typ string) {
	dir := gitWrittenRepo(f)
	objects := gitObjects(f, dir)
	for _, h := range objects[typ] {
		f.Add(rawObject(f, dir, typ, h))
	}
	if typ == "commit" {
		h := objects["commit"][0]
		f.Add([]byte(signedCommit(h, h, h, h)))
	}
}

// Whatever decodes as a tree encodes to bytes that decode to the same
// entries (sorted as git sorts them) and encode to the same bytes again;
// nothing panics.
func FuzzDecodeTree(f *testing.F) {
	seedWithGitObjects(f, "tree")
	f.Add([]byte("100664 old\x00" + strings.Repeat("w", 20)))
	f.Add([]byte("40000 a\x00" + strings.Repeat("w", 20) + "100644 a\x00" + strings.Repeat("w", 20)))
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
		if third, err := encodeTree(decoded); err != nil || !bytes.Equal(third, again) {
			t.Fatalf("%q: encoded as %q, then as %q (%v)", data, again, third, err)
		}
	})
}

// Whatever decodes as a commit keeps its tree, parents, people and
// message through an encoding, which encodes to the same bytes again;
// nothing panics.
func FuzzDecodeCommit(f *testing.F) {
	seedWithGitObjects(f, "commit")
	h := strings.Repeat("ab", 20)
	f.Add([]byte("tree " + h + "\nauthor <> -5 +2459\ncommitter A <a>b> 1 x\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := decodeCommit(data)
		if err != nil {
			return
		}
		encoded := encodeCommit(c)
		again, err := decodeCommit(encoded)
		if err != nil {
			t.Fatalf("%q encoded as %q, which does not decode: %v", data, encoded, err)
		}
		if again.Tree != c.Tree || !slices.Equal(again.Parents, c.Parents) || again.Message != c.Message ||
			again.Author.Name != c.Author.Name || again.Author.Email != c.Author.Email ||
			again.Committer.Name != c.Committer.Name || again.Committer.Email != c.Committer.Email {
			t.Fatalf("%q: decoded again as %+v, want %+v", data, again, c)
		}
		if third := encodeCommit(again); !bytes.Equal(third, encoded) {
			t.Fatalf("%q: encoded as %q, then as %q", data, encoded, third)
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
	testgit.Run(t, r.Path, "update-ref", "refs/heads/checked", commit.String())
	testgit.Run(t, r.Path, "fsck", "--strict", "--no-dangling")
	if got := testgit.Run(t, r.Path, "show", "-s", "--format=%s|%T|%P", commit.String()); got != "planq: records|"+tree.String()+"|"+tip.String() {
		t.Errorf("git reads the commit as %q", got)
	}

	// Every mode planq may carry over from a tree git wrote, in names
	// that sort differently as files and as directories, and a commit
	// with two parents made in another time zone, as git prints them.
	blob, err := r.WriteBlob([]byte("a.txt"))
	if err != nil {
		t.Fatal(err)
	}
	sub, err := r.writeTree([]treeEntry{{Name: "x", Mode: filemode.Regular, Hash: blob}})
	if err != nil {
		t.Fatal(err)
	}
	modes, err := r.writeTree([]treeEntry{
		{Name: "sub", Mode: filemode.Submodule, Hash: tip},
		{Name: "a0", Mode: filemode.Symlink, Hash: blob},
		{Name: "a", Mode: filemode.Dir, Hash: sub},
		{Name: "a.txt", Mode: filemode.Regular, Hash: blob},
		{Name: "a.b", Mode: filemode.Executable, Hash: blob},
		{Name: "a-b", Mode: filemode.Regular, Hash: blob},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		"100644 blob " + blob.String() + "\ta-b",
		"100755 blob " + blob.String() + "\ta.b",
		"100644 blob " + blob.String() + "\ta.txt",
		"040000 tree " + sub.String() + "\ta",
		"120000 blob " + blob.String() + "\ta0",
		"160000 commit " + tip.String() + "\tsub",
	}, "\n")
	if got := testgit.Run(t, r.Path, "cat-file", "-p", modes.String()); got != want {
		t.Errorf("git prints planq's tree as\n%s\nwant\n%s", got, want)
	}
	sig := signature{Name: "Ana Lyst", Email: "ana@example.com", When: time.Date(2026, 3, 4, 5, 6, 7, 0, time.FixedZone("", 5*3600+30*60))}
	merge, err := r.writeCommit(modes, []Hash{commit, tip}, "merge\n\nbody\n", sig)
	if err != nil {
		t.Fatal(err)
	}
	wantCommit := "tree " + modes.String() + "\nparent " + commit.String() + "\nparent " + tip.String() +
		"\nauthor Ana Lyst <ana@example.com> 1772580967 +0530\ncommitter Ana Lyst <ana@example.com> 1772580967 +0530\n\nmerge\n\nbody"
	if got := testgit.Run(t, r.Path, "cat-file", "-p", merge.String()); got != wantCommit {
		t.Errorf("git prints planq's commit as\n%s\nwant\n%s", got, wantCommit)
	}
	testgit.Run(t, r.Path, "update-ref", "refs/heads/checked", merge.String())
	testgit.Run(t, r.Path, "fsck", "--strict", "--no-dangling")
}
