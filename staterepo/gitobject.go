package staterepo

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// go-git stores and finds objects (loose and packed); planq reads and
// writes the two kinds of object it builds, trees and commits, itself.
// go-git's object package would do it too, but it links OpenPGP (for
// commit signatures planq never makes or checks), whose initialisation
// every command would pay for at start.

// treeEntry is one entry of a git tree.
type treeEntry struct {
	Name string
	Mode filemode.FileMode
	Hash Hash
}

// signature is who made a commit, and when.
type signature struct {
	Name, Email string
	When        time.Time
}

// commitObject is what planq reads and writes of a commit.
type commitObject struct {
	Tree      Hash
	Parents   []Hash
	Author    signature
	Committer signature
	Message   string
}

var errMalformed = errors.New("malformed object")

// treeSortKey is a name as git sorts a tree's entries: a directory as if
// its name ended in '/'.
func treeSortKey(e treeEntry) string {
	if e.Mode == filemode.Dir {
		return e.Name + "/"
	}
	return e.Name
}

// encodeTree lays out entries as git does, sorting them as git sorts them.
func encodeTree(entries []treeEntry) ([]byte, error) {
	entries = slices.Clone(entries)
	slices.SortFunc(entries, func(a, b treeEntry) int { return strings.Compare(treeSortKey(a), treeSortKey(b)) })
	// A file and a directory of the same name sort apart ("a" and "a/"),
	// so neighbours alone cannot tell that a name comes twice.
	var names map[string]bool
	if len(entries) > 1 {
		names = make(map[string]bool, len(entries))
	}
	var b []byte
	for _, e := range entries {
		if e.Name == "" || strings.ContainsAny(e.Name, "/\x00") {
			return nil, fmt.Errorf("failed to encode tree: %w: entry name %q", errMalformed, e.Name)
		}
		if names[e.Name] {
			return nil, fmt.Errorf("failed to encode tree: %w: %q twice", errMalformed, e.Name)
		}
		if names != nil {
			names[e.Name] = true
		}
		if canonicalMode(e.Mode) != e.Mode {
			// git reads any other mode as one of these five and git fsck
			// --strict rejects it, so planq writes only what git would.
			return nil, fmt.Errorf("failed to encode tree: %w: %q has mode %o", errMalformed, e.Name, uint32(e.Mode))
		}
		b = strconv.AppendUint(b, uint64(e.Mode), 8)
		b = append(b, ' ')
		b = append(b, e.Name...)
		b = append(b, 0)
		b = append(b, e.Hash[:]...)
	}
	return b, nil
}

// decodeTree reads a tree's entries, in the tree's order.
func decodeTree(data []byte) ([]treeEntry, error) {
	var out []treeEntry
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		if sp <= 0 {
			return nil, fmt.Errorf("%w: tree entry without a mode", errMalformed)
		}
		mode, err := strconv.ParseUint(string(data[:sp]), 8, 32)
		if err != nil {
			return nil, fmt.Errorf("%w: tree entry mode %q", errMalformed, data[:sp])
		}
		data = data[sp+1:]
		nul := bytes.IndexByte(data, 0)
		if nul <= 0 {
			return nil, fmt.Errorf("%w: tree entry without a name", errMalformed)
		}
		name := string(data[:nul])
		data = data[nul+1:]
		var h Hash
		if len(data) < len(h) {
			return nil, fmt.Errorf("%w: tree entry %q cut short", errMalformed, name)
		}
		copy(h[:], data)
		data = data[len(h):]
		out = append(out, treeEntry{Name: name, Mode: canonicalMode(filemode.FileMode(mode)), Hash: h})
	}
	return out, nil
}

// canonicalMode is the mode git means by mode: old trees wrote 100664 and
// the like for regular files.
func canonicalMode(mode filemode.FileMode) filemode.FileMode {
	switch mode & 0o170000 {
	case 0o040000:
		return filemode.Dir
	case 0o100000:
		if mode&0o111 != 0 {
			return filemode.Executable
		}
		return filemode.Regular
	case 0o120000:
		return filemode.Symlink
	}
	return filemode.Submodule
}

// encodeCommit lays out c as git (and go-git) does, so that the same
// commit made anywhere has the same hash.
func encodeCommit(c commitObject) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "tree %s\n", c.Tree)
	for _, p := range c.Parents {
		fmt.Fprintf(&b, "parent %s\n", p)
	}
	fmt.Fprintf(&b, "author %s\ncommitter %s\n\n%s", c.Author.encode(), c.Committer.encode(), c.Message)
	return b.Bytes()
}

func (s signature) encode() string {
	return fmt.Sprintf("%s <%s> %d %s", s.Name, s.Email, max(s.When.Unix(), 0), s.When.Format("-0700"))
}

// decodeCommit reads a commit: its tree, parents, author, committer and
// message. Headers planq does not write (gpgsig, mergetag, encoding, and
// their continuation lines) are passed over.
func decodeCommit(data []byte) (commitObject, error) {
	var c commitObject
	var hasTree bool
	for {
		line, rest, found := bytes.Cut(data, []byte{'\n'})
		if !found {
			return commitObject{}, fmt.Errorf("%w: commit without a message", errMalformed)
		}
		data = rest
		if len(line) == 0 {
			break // the message follows
		}
		key, value, _ := bytes.Cut(line, []byte{' '})
		switch string(key) {
		case "tree", "parent":
			h, ok := parseHash(string(value))
			if !ok {
				return commitObject{}, fmt.Errorf("%w: commit %s %q", errMalformed, key, value)
			}
			if string(key) == "tree" {
				c.Tree, hasTree = h, true
			} else {
				c.Parents = append(c.Parents, h)
			}
		case "author":
			c.Author = decodeSignature(value)
		case "committer":
			c.Committer = decodeSignature(value)
		}
	}
	if !hasTree {
		return commitObject{}, fmt.Errorf("%w: commit without a tree", errMalformed)
	}
	c.Message = string(data)
	return c, nil
}

// decodeSignature reads "Name <email> 1700000000 +0100"; what does not
// read is left empty, as git tolerates.
func decodeSignature(b []byte) signature {
	open, closing := bytes.LastIndexByte(b, '<'), bytes.LastIndexByte(b, '>')
	if open < 0 || closing < open {
		return signature{}
	}
	s := signature{Name: string(bytes.TrimSpace(b[:open])), Email: string(b[open+1 : closing])}
	fields := strings.Fields(string(b[closing+1:]))
	if len(fields) == 0 {
		return s
	}
	secs, err := strconv.ParseInt(fields[0], 10, 64)
	if err != nil {
		return s
	}
	zone := time.UTC
	if len(fields) > 1 {
		if z, err := time.Parse("-0700", fields[1]); err == nil {
			_, offset := z.Zone()
			zone = time.FixedZone("", offset)
		}
	}
	s.When = time.Unix(secs, 0).In(zone)
	return s
}

// readObject reads the content of object h, which must be of type t.
func (r *Repo) readObject(h Hash, t plumbing.ObjectType) ([]byte, error) {
	obj, err := r.st.EncodedObject(t, h)
	if err != nil {
		return nil, r.objectError(h, err)
	}
	rd, err := obj.Reader()
	if err != nil {
		return nil, r.objectError(h, err)
	}
	defer rd.Close()
	data, err := io.ReadAll(rd)
	if err != nil {
		return nil, r.objectError(h, err)
	}
	return data, nil
}

// readTree reads the entries of tree h.
func (r *Repo) readTree(h Hash) ([]treeEntry, error) {
	if h == emptyTree {
		return nil, nil
	}
	data, err := r.readObject(h, plumbing.TreeObject)
	if err != nil {
		return nil, fmt.Errorf("failed to read tree %s: %w", h, err)
	}
	entries, err := decodeTree(data)
	if err != nil {
		return nil, fmt.Errorf("failed to read tree %s: %w", h, r.objectError(h, err))
	}
	return entries, nil
}

// readCommit reads commit h.
func (r *Repo) readCommit(h Hash) (commitObject, error) {
	data, err := r.readObject(h, plumbing.CommitObject)
	if err != nil {
		return commitObject{}, fmt.Errorf("failed to read commit %s: %w", h, err)
	}
	c, err := decodeCommit(data)
	if err != nil {
		return commitObject{}, fmt.Errorf("failed to read commit %s: %w", h, r.objectError(h, err))
	}
	return c, nil
}

// writeObject stores data as an object of type t.
func (r *Repo) writeObject(t plumbing.ObjectType, data []byte) (Hash, error) {
	obj := r.st.NewEncodedObject()
	obj.SetType(t)
	obj.SetSize(int64(len(data)))
	w, err := obj.Writer()
	if err != nil {
		return ZeroHash, err
	}
	if _, err := w.Write(data); err != nil {
		return ZeroHash, err
	}
	if err := w.Close(); err != nil {
		return ZeroHash, err
	}
	return r.storeLoose(obj)
}

// findEntry finds the entry at p (slash-separated) below tree h.
func (r *Repo) findEntry(h Hash, p string) (treeEntry, bool, error) {
	entries, err := r.readTree(h)
	if err != nil {
		return treeEntry{}, false, err
	}
	name, rest, nested := strings.Cut(p, "/")
	for _, e := range entries {
		if e.Name != name {
			continue
		}
		if !nested {
			return e, true, nil
		}
		if e.Mode != filemode.Dir {
			return treeEntry{}, false, nil
		}
		return r.findEntry(e.Hash, rest)
	}
	return treeEntry{}, false, nil
}
