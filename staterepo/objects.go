package staterepo

import (
	"fmt"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// WriteBlob stores data as a blob and returns its hash.
func (r *Repo) WriteBlob(data []byte) (plumbing.Hash, error) {
	h := plumbing.ComputeHash(plumbing.BlobObject, data)
	if r.st.HasEncodedObject(h) == nil {
		return h, nil
	}
	return r.writeBlob(data)
}

// writeBlob stores data without looking for it first: looking may load
// every pack index, which costs more than writing a small blob again.
func (r *Repo) writeBlob(data []byte) (plumbing.Hash, error) {
	h, err := r.writeObject(plumbing.BlobObject, data)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("failed to write blob: %w", err)
	}
	return h, nil
}

// ReadBlob returns the content of a blob.
func (r *Repo) ReadBlob(h plumbing.Hash) ([]byte, error) {
	data, err := r.readObject(h, plumbing.BlobObject)
	if err != nil {
		return nil, fmt.Errorf("failed to read blob %s: %w", h, err)
	}
	return data, nil
}

// ReadFile returns the content of path in commit's tree.
func (r *Repo) ReadFile(commit plumbing.Hash, p string) ([]byte, error) {
	c, err := r.readCommit(commit)
	if err != nil {
		return nil, err
	}
	entry, found, err := r.findEntry(c.Tree, p)
	if err != nil {
		return nil, fmt.Errorf("failed to read %s: %w", p, err)
	}
	if !found || entry.Mode == filemode.Dir {
		return nil, fmt.Errorf("failed to read %s: %w", p, os.ErrNotExist)
	}
	return r.ReadBlob(entry.Hash)
}

// EditTree returns the tree that is base with each path set to a blob; a
// zero hash deletes the path. Only the trees along the edited paths are
// rewritten, so the cost follows the size of those directories, not of the
// whole repository. Directories left empty disappear, as in git.
func (r *Repo) EditTree(base plumbing.Hash, blobs map[string]plumbing.Hash) (plumbing.Hash, error) {
	return r.editTree(base, blobs)
}

func (r *Repo) editTree(base plumbing.Hash, edits map[string]plumbing.Hash) (plumbing.Hash, error) {
	var entries []treeEntry
	if !base.IsZero() {
		var err error
		if entries, err = r.readTree(base); err != nil {
			return plumbing.ZeroHash, err
		}
	}
	files := map[string]plumbing.Hash{}
	subdirs := map[string]map[string]plumbing.Hash{}
	for p, h := range edits {
		dir, rest, nested := strings.Cut(p, "/")
		if nested {
			if subdirs[dir] == nil {
				subdirs[dir] = map[string]plumbing.Hash{}
			}
			subdirs[dir][rest] = h
		} else {
			files[p] = h
		}
	}
	index := make(map[string]int, len(entries))
	for i, e := range entries {
		index[e.Name] = i
	}
	set := func(name string, mode filemode.FileMode, h plumbing.Hash) {
		if i, ok := index[name]; ok {
			entries[i].Hash, entries[i].Mode = h, mode
			return
		}
		index[name] = len(entries)
		entries = append(entries, treeEntry{Name: name, Mode: mode, Hash: h})
	}
	for name, h := range files {
		set(name, filemode.Regular, h)
	}
	for dir, sub := range subdirs {
		var subBase plumbing.Hash
		if i, ok := index[dir]; ok && entries[i].Mode == filemode.Dir {
			subBase = entries[i].Hash
		}
		h, err := r.editTree(subBase, sub)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		set(dir, filemode.Dir, h)
	}
	kept := entries[:0]
	for _, e := range entries {
		if !e.Hash.IsZero() {
			kept = append(kept, e)
		}
	}
	return r.writeTree(kept)
}

// emptyTree is git's well-known empty tree; an edit that empties a
// directory yields it, and the parent then drops the entry.
var emptyTree = plumbing.NewHash("4b825dc642cb6eb9a060e54bf8d69288fbee4904")

func (r *Repo) writeTree(entries []treeEntry) (plumbing.Hash, error) {
	if len(entries) == 0 {
		return plumbing.ZeroHash, nil
	}
	data, err := encodeTree(entries)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	h, err := r.writeObject(plumbing.TreeObject, data)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("failed to write tree: %w", err)
	}
	return h, nil
}

// WriteCommit stores a commit of tree with parents, authored by the user's
// git identity.
func (r *Repo) WriteCommit(tree plumbing.Hash, parents []plumbing.Hash, message string) (plumbing.Hash, error) {
	return r.writeCommit(tree, parents, message, r.signature())
}

// rootSignature signs the first commits of every global: the same on every
// machine, so that the same skeleton makes the same commit, and two machines
// that started planq apart still share a merge base.
var rootSignature = signature{Name: "planq", Email: "planq@localhost", When: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}

func (r *Repo) writeCommit(tree plumbing.Hash, parents []plumbing.Hash, message string, sig signature) (plumbing.Hash, error) {
	if tree.IsZero() {
		tree = emptyTree
		if err := r.ensureEmptyTree(); err != nil {
			return plumbing.ZeroHash, err
		}
	}
	c := commitObject{Tree: tree, Parents: parents, Author: sig, Committer: sig, Message: message}
	h, err := r.writeObject(plumbing.CommitObject, encodeCommit(c))
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("failed to write commit: %w", err)
	}
	return h, nil
}

func (r *Repo) ensureEmptyTree() error {
	_, err := r.writeObject(plumbing.TreeObject, nil)
	return err
}

// Commit is what planq reads of a commit.
type Commit struct {
	Hash    Hash
	Tree    Hash
	Parents []Hash
	// Time is when it was committed.
	Time    time.Time
	Message string
}

// Subject is the first line of the commit's message.
func (c Commit) Subject() string { return subject(c.Message) }

// Commit reads the commit h.
func (r *Repo) Commit(h Hash) (Commit, error) {
	c, err := r.readCommit(h)
	if err != nil {
		return Commit{}, err
	}
	return Commit{Hash: h, Tree: c.Tree, Parents: c.Parents, Time: c.Committer.When, Message: c.Message}, nil
}

// commitTree reads the entries at the top of commit's tree.
func (r *Repo) commitTree(commit plumbing.Hash) ([]treeEntry, error) {
	c, err := r.readCommit(commit)
	if err != nil {
		return nil, err
	}
	return r.readTree(c.Tree)
}

// signature is the identity planq commits with: the user's git identity
// (environment, then git config), or "planq" when none is configured, so a
// fresh machine never fails a record for want of user.email.
func (r *Repo) signature() signature {
	r.identityOnce.Do(func() {
		name, email := os.Getenv("GIT_AUTHOR_NAME"), os.Getenv("GIT_AUTHOR_EMAIL")
		if name == "" || email == "" {
			// The repository's own config first, then the user's, as git reads them.
			for _, load := range []func() (*config.Config, error){r.st.Config, func() (*config.Config, error) { return config.LoadConfig(config.GlobalScope) }} {
				if cfg, err := load(); err == nil {
					name = first(name, cfg.User.Name, cfg.Author.Name)
					email = first(email, cfg.User.Email, cfg.Author.Email)
				}
			}
		}
		r.identity = signature{Name: first(name, "planq"), Email: first(email, "planq@localhost")}
	})
	sig := r.identity
	sig.When = time.Now()
	return sig
}

func first(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

// identityState is embedded in Repo; kept apart to keep Repo's fields short.
type identityState struct {
	identityOnce sync.Once
	identity     signature
}

// File is a blob found while walking a tree.
type File struct {
	Path string
	Blob plumbing.Hash
}

// Walk lists the files under the top-level directories dirs of commit's
// tree (all files when dirs is empty). A subtree already walked at the same
// path with the same hash (recorded in seen) is skipped, so walking many
// branches that share history reads each directory once.
func (r *Repo) Walk(commit plumbing.Hash, dirs []string, seen map[string]bool) ([]File, error) {
	root, err := r.commitTree(commit)
	if err != nil {
		return nil, err
	}
	return r.walkRoot(root, dirs, seen)
}

// WalkTree is Walk for a tree rather than a commit.
func (r *Repo) WalkTree(tree Hash, dirs []string) ([]File, error) {
	if tree.IsZero() || tree == emptyTree {
		return nil, nil
	}
	root, err := r.readTree(tree)
	if err != nil {
		return nil, err
	}
	return r.walkRoot(root, dirs, nil)
}

// BlobAt returns the blob at path in tree; an error wrapping os.ErrNotExist
// when there is none.
func (r *Repo) BlobAt(tree Hash, p string) (Hash, error) {
	if tree.IsZero() || tree == emptyTree {
		return ZeroHash, fmt.Errorf("failed to find %s: %w", p, os.ErrNotExist)
	}
	e, found, err := r.findEntry(tree, p)
	if err != nil {
		return ZeroHash, err
	}
	if !found {
		return ZeroHash, fmt.Errorf("failed to find %s: %w", p, os.ErrNotExist)
	}
	return e.Hash, nil
}

func (r *Repo) walkRoot(root []treeEntry, dirs []string, seen map[string]bool) ([]File, error) {
	var err error
	var files []File
	for _, e := range root {
		if len(dirs) > 0 && !slices.Contains(dirs, e.Name) {
			continue
		}
		if e.Mode != filemode.Dir {
			files = append(files, File{Path: e.Name, Blob: e.Hash})
			continue
		}
		if files, err = r.walkTree(e.Hash, e.Name, seen, files); err != nil {
			return nil, err
		}
	}
	return files, nil
}

func (r *Repo) walkTree(h plumbing.Hash, prefix string, seen map[string]bool, files []File) ([]File, error) {
	if seen != nil {
		key := prefix + "\x00" + h.String()
		if seen[key] {
			return files, nil
		}
		seen[key] = true
	}
	entries, err := r.readTree(h)
	if err != nil {
		return nil, fmt.Errorf("failed to read %s: %w", prefix, err)
	}
	for _, e := range entries {
		p := path.Join(prefix, e.Name)
		switch e.Mode {
		case filemode.Dir:
			if files, err = r.walkTree(e.Hash, p, seen, files); err != nil {
				return nil, err
			}
		case filemode.Regular, filemode.Executable:
			files = append(files, File{Path: p, Blob: e.Hash})
		}
	}
	return files, nil
}

// Entry is one entry at the top of a commit's tree.
type Entry struct {
	Name string
	Dir  bool
	Blob Hash
}

// TopLevel lists the entries at the top of commit's tree.
func (r *Repo) TopLevel(commit Hash) ([]Entry, error) {
	t, err := r.commitTree(commit)
	if err != nil {
		return nil, err
	}
	return entriesOf(t), nil
}

// TreeEntries lists the entries of one tree (a directory's, from an Entry).
func (r *Repo) TreeEntries(tree Hash) ([]Entry, error) {
	if tree.IsZero() || tree == emptyTree {
		return nil, nil
	}
	t, err := r.readTree(tree)
	if err != nil {
		return nil, err
	}
	return entriesOf(t), nil
}

func entriesOf(t []treeEntry) []Entry {
	out := make([]Entry, 0, len(t))
	for _, e := range t {
		out = append(out, Entry{Name: e.Name, Dir: e.Mode == filemode.Dir, Blob: e.Hash})
	}
	return out
}
