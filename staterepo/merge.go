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
		b, hasB := eb[name]
		o, hasO := eo[name]
		t, hasT := et[name]
		p := path.Join(prefix, name)
		isDir := func(e treeEntry, ok bool) bool { return ok && e.Mode == filemode.Dir }
		isFile := func(e treeEntry, ok bool) bool { return ok && e.Mode != filemode.Dir }
		switch {
		case hasO && hasT && o.Hash == t.Hash && o.Mode == t.Mode && (o.Mode != filemode.Dir || !hasB || b.Hash == o.Hash):
			// The same on both sides. A directory both sides changed alike
			// is still read: files both deleted go to the resolver too.
			out = append(out, o)
		case (isDir(b, hasB) || !hasB) && (isDir(o, hasO) || !hasO) && (isDir(t, hasT) || !hasT):
			h, err := r.mergeDir(p, hashOf(b, hasB), hashOf(o, hasO), hashOf(t, hasT), resolve)
			if err != nil {
				return ZeroHash, err
			}
			if !h.IsZero() {
				out = append(out, treeEntry{Name: name, Mode: filemode.Dir, Hash: h})
			}
		case (isFile(b, hasB) || !hasB) && (isFile(o, hasO) || !hasO) && (isFile(t, hasT) || !hasT):
			h, mode, err := mergeFile(p, b, hasB, o, hasO, t, hasT, resolve)
			if err != nil {
				return ZeroHash, err
			}
			if !h.IsZero() {
				out = append(out, treeEntry{Name: name, Mode: mode, Hash: h})
			}
		default:
			return ZeroHash, fmt.Errorf("failed to merge %s: a file on one side, a directory on the other", p)
		}
	}
	return r.writeTree(out)
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

func mergeFile(p string, b treeEntry, hasB bool, o treeEntry, hasO bool, t treeEntry, hasT bool, resolve Resolver) (Hash, filemode.FileMode, error) {
	switch {
	case hasO && hasB && o.Hash == b.Hash && hasT:
		return t.Hash, t.Mode, nil
	case hasT && hasB && t.Hash == b.Hash && hasO:
		return o.Hash, o.Mode, nil
	case hasO && !hasB && !hasT:
		return o.Hash, o.Mode, nil
	case hasT && !hasB && !hasO:
		return t.Hash, t.Mode, nil
	}
	h, err := resolve(p, hashOf(b, hasB), hashOf(o, hasO), hashOf(t, hasT))
	if err != nil {
		return ZeroHash, 0, err
	}
	mode := filemode.Regular
	if hasO && h == o.Hash {
		mode = o.Mode
	} else if hasT && h == t.Hash {
		mode = t.Mode
	}
	return h, mode, nil
}

func hashOf(e treeEntry, ok bool) Hash {
	if !ok {
		return ZeroHash
	}
	return e.Hash
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
	if a == b {
		return true, nil
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

// exitedWith says whether err is git's exit with code, and nothing else.
func exitedWith(err error, code int) bool {
	var exit *exec.ExitError
	return errors.As(err, &exit) && exit.ExitCode() == code
}
