package staterepo

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// Resolver decides a file's content when the two sides of a merge disagree
// in a way the three-way rule does not settle: both changed it differently,
// or one side deleted it. Each hash is the file's blob on that side, zero
// where the file is absent. It returns the blob to keep, zero to delete.
type Resolver func(path string, base, ours, theirs Hash) (Hash, error)

// MergeTrees merges the trees ours and theirs with base as their common
// ancestor, per path: a path changed on one side only takes that side, a
// path changed the same way on both takes it once, and everything else,
// deletions included, goes to resolve. Directories the two sides have alike,
// or only one side has, are taken without being read, so the cost follows
// the directories that changed.
func (r *Repo) MergeTrees(base, ours, theirs Hash, resolve Resolver) (Hash, error) {
	return r.mergeTree("", base, ours, theirs, resolve)
}

func (r *Repo) mergeTree(prefix string, base, ours, theirs Hash, resolve Resolver) (Hash, error) {
	eb, err := r.treeEntries(base)
	if err != nil {
		return ZeroHash, err
	}
	eo, err := r.treeEntries(ours)
	if err != nil {
		return ZeroHash, err
	}
	et, err := r.treeEntries(theirs)
	if err != nil {
		return ZeroHash, err
	}
	names := map[string]bool{}
	for _, m := range []map[string]treeEntry{eb, eo, et} {
		for n := range m {
			names[n] = true
		}
	}
	var out []treeEntry
	for name := range names {
		e, keep, err := r.mergeEntry(path.Join(prefix, name), name, sideOf(eb, name), sideOf(eo, name), sideOf(et, name), resolve)
		if err != nil {
			return ZeroHash, err
		}
		if keep {
			out = append(out, e)
		}
	}
	return r.writeTree(out)
}

// side is one side's entry of a name in a merge; ok false where that side
// has none.
type side struct {
	e  treeEntry
	ok bool
}

func sideOf(entries map[string]treeEntry, name string) side {
	e, ok := entries[name]
	return side{e, ok}
}

// hash is the side's blob or tree, zero where it has none.
func (s side) hash() Hash {
	if !s.ok {
		return ZeroHash
	}
	return s.e.Hash
}

func (s side) dirOrNone() bool  { return !s.ok || s.e.Mode == filemode.Dir }
func (s side) fileOrNone() bool { return !s.ok || s.e.Mode != filemode.Dir }

// mergeEntry merges the entries of one name at p, and says whether the
// merged tree keeps one.
func (r *Repo) mergeEntry(p, name string, b, o, t side, resolve Resolver) (treeEntry, bool, error) {
	switch {
	case sameOnBoth(b, o, t):
		return o.e, true, nil
	case b.dirOrNone() && o.dirOrNone() && t.dirOrNone():
		h, err := r.mergeDir(p, b.hash(), o.hash(), t.hash(), resolve)
		return treeEntry{Name: name, Mode: filemode.Dir, Hash: h}, err == nil && !h.IsZero(), err
	case b.fileOrNone() && o.fileOrNone() && t.fileOrNone():
		h, mode, err := mergeFile(p, b, o, t, resolve)
		return treeEntry{Name: name, Mode: mode, Hash: h}, err == nil && !h.IsZero(), err
	}
	return treeEntry{}, false, fmt.Errorf("failed to merge %s: a file on one side, a directory on the other", p)
}

// sameOnBoth says whether both sides have the same entry. A directory
// both sides changed alike is still read: files both deleted go to the
// resolver too.
func sameOnBoth(b, o, t side) bool {
	return o.ok && t.ok && o.e.Hash == t.e.Hash && o.e.Mode == t.e.Mode && (o.e.Mode != filemode.Dir || !b.ok || b.e.Hash == o.e.Hash)
}

// mergeDir merges one directory. A directory only one side has is taken
// whole. One that one side left unchanged is still read: the other side may
// have deleted files in it, and deletions go to the resolver.
func (r *Repo) mergeDir(p string, b, o, t Hash, resolve Resolver) (Hash, error) {
	switch {
	case b.IsZero() && t.IsZero():
		return o, nil
	case b.IsZero() && o.IsZero():
		return t, nil
	}
	return r.mergeTree(p, b, o, t, resolve)
}

func mergeFile(p string, b, o, t side, resolve Resolver) (Hash, filemode.FileMode, error) {
	if s, ok := changedOnOneSide(b, o, t); ok {
		return s.e.Hash, s.e.Mode, nil
	}
	h, err := resolve(p, b.hash(), o.hash(), t.hash())
	if err != nil {
		return ZeroHash, 0, err
	}
	mode := filemode.Regular
	if o.ok && h == o.e.Hash {
		mode = o.e.Mode
	} else if t.ok && h == t.e.Hash {
		mode = t.e.Mode
	}
	return h, mode, nil
}

// changedOnOneSide is the side a file's merge takes without the resolver:
// the one that changed it when the other left it as it was, or the one
// that added it.
func changedOnOneSide(b, o, t side) (side, bool) {
	switch {
	case o.ok && b.ok && o.e.Hash == b.e.Hash && t.ok:
		return t, true
	case t.ok && b.ok && t.e.Hash == b.e.Hash && o.ok:
		return o, true
	case o.ok && !b.ok && !t.ok:
		return o, true
	case t.ok && !b.ok && !o.ok:
		return t, true
	}
	return side{}, false
}

func (r *Repo) treeEntries(h Hash) (map[string]treeEntry, error) {
	out := map[string]treeEntry{}
	if h.IsZero() || h == emptyTree {
		return out, nil
	}
	entries, err := r.readTree(h)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		out[e.Name] = e
	}
	return out, nil
}

// TreeOf returns the tree of a commit.
func (r *Repo) TreeOf(commit Hash) (Hash, error) {
	c, err := r.Commit(commit)
	if err != nil {
		return ZeroHash, err
	}
	return c.Tree, nil
}

// MergeBase returns the best common ancestor of two commits, as git finds
// it (with the commit-graph when there is one), or false when they share no
// history. When criss-cross merges left several equally good ones, it is
// the one whose hash sorts first, so that a merge makes the same tree
// whichever side runs it.
func (r *Repo) MergeBase(ctx context.Context, a, b Hash) (Hash, bool, error) {
	out, err := r.git.Run(ctx, "merge-base", "--all", a.String(), b.String())
	if exitedWith(err, 1) && out == "" {
		return ZeroHash, false, nil
	}
	if err != nil {
		return ZeroHash, false, fmt.Errorf("failed to find the merge base of %s and %s: %w", a, b, err)
	}
	bases := strings.Fields(out)
	slices.Sort(bases)
	return plumbing.NewHash(bases[0]), true, nil
}

// IsAncestor reports whether commit a is an ancestor of (or equal to) b.
func (r *Repo) IsAncestor(ctx context.Context, a, b Hash) (bool, error) {
	if found, sure := r.nearAncestor(a, b, nearAncestorWalk); sure {
		return found, nil
	}
	_, err := r.git.Run(ctx, "merge-base", "--is-ancestor", a.String(), b.String())
	switch {
	case err == nil:
		return true, nil
	case exitedWith(err, 1):
		return false, nil
	}
	return false, fmt.Errorf("failed to compare %s and %s: %w", a, b, err)
}

// nearAncestorWalk is how many commits of b's history IsAncestor reads in
// this process before it asks git: most questions planq asks are of
// commits a few apart (a pull's fast-forward, a promote's merged tip),
// and a git process costs more than a walk of that many.
const nearAncestorWalk = 64

// nearAncestor walks b's history breadth first, reading at most budget
// commits, for a. sure is false when the walk ran out of budget or could
// not read a commit: git answers then.
func (r *Repo) nearAncestor(a, b Hash, budget int) (found, sure bool) {
	if a == b {
		return true, true
	}
	seen := map[Hash]bool{b: true}
	queue := []Hash{b}
	for ; len(queue) > 0; queue = queue[1:] {
		if budget == 0 {
			return false, false
		}
		budget--
		c, err := r.readCommit(queue[0])
		if err != nil {
			return false, false
		}
		for _, p := range c.Parents {
			if p == a {
				return true, true
			}
			if !seen[p] {
				seen[p] = true
				queue = append(queue, p)
			}
		}
	}
	return false, true // b's whole history, without a
}

// exitedWith says whether err is git's exit with code, and nothing else.
func exitedWith(err error, code int) bool {
	var exit *exec.ExitError
	return errors.As(err, &exit) && exit.ExitCode() == code
}
