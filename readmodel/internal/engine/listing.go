package engine

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/staterepo"
)

// A listing is what reads need of one commit without going to git: when it
// was made, the entries at the top of its tree and in each directory
// there, and the content of the small files outside the kinds' directories
// (the plan, branch contexts, notes). Opening the repository's pack index
// costs more than a whole warm read at 50,000 records, so a read that finds
// the listings of the tips it needs never opens it. A listing is named by
// its commit, so it is never stale.
type listing struct {
	time time.Time
	dirs map[string][]listed // "" is the top of the tree
}

type listed struct {
	staterepo.Entry
	content []byte // nil when not kept
}

const (
	listingMagic   = "planq-listing\n"
	listingVersion = 1
	// maxListedContent bounds a file whose content a listing keeps.
	maxListedContent = 16 << 10
	// keepListings bounds the listings kept: a few per branch is all reads
	// of the tips need.
	keepListings = 256
)

func (rd *Store) listingFile(commit staterepo.Hash) string {
	return filepath.Join(rd.cacheDir, "commits", commit.String()+".lst")
}

// listing returns commit's listing: from memory, from its file, or made
// from git and kept.
func (rd *Store) listing(commit staterepo.Hash) (*listing, error) {
	rd.mu.Lock()
	defer rd.mu.Unlock()
	if l, ok := rd.listings[commit]; ok {
		return l, nil
	}
	l, err := readListing(rd.listingFile(commit))
	if err != nil {
		if l, err = rd.makeListing(commit); err != nil {
			return nil, err
		}
		// A listing that cannot be kept costs time, never a read.
		_ = saveListing(rd.listingFile(commit), l)
	}
	if len(rd.listings) >= keepListings { // a long-running MCP server meets a tip per write
		clear(rd.listings)
	}
	rd.listings[commit] = l
	return l, nil
}

// makeListing lists commit from git. What its parent's listing (when one
// is kept) has under the same hash, a directory or a file, is taken from
// there: a new commit changes a shard or two, and git's pack index, which
// reading an unchanged object needs, costs a process milliseconds.
func (rd *Store) makeListing(commit staterepo.Hash) (*listing, error) {
	c, err := rd.repo.Commit(commit)
	if err != nil {
		return nil, err
	}
	top, err := rd.repo.TopLevel(commit)
	if err != nil {
		return nil, err
	}
	ls := &lister{rd: rd, known: map[staterepo.Hash]listed{}, l: &listing{time: c.Time, dirs: map[string][]listed{}}}
	if len(c.Parents) > 0 {
		ls.parent, _ = readListing(rd.listingFile(c.Parents[0])) // none kept: everything from git
	}
	if ls.parent != nil {
		for _, e := range ls.parent.entries("") {
			ls.known[e.Blob] = e
		}
	}
	if err := ls.fill("", top); err != nil {
		return nil, err
	}
	return ls.l, nil
}

// lister makes a listing l, taking from its parent's (nil for none) what
// is there under the same hash: known are the parent's top entries by
// hash.
type lister struct {
	rd     *Store
	parent *listing
	known  map[staterepo.Hash]listed
	l      *listing
}

// fill lists the entries of dir ("" for the top of the tree), and of each
// directory at the top.
func (ls *lister) fill(dir string, entries []staterepo.Entry) error {
	_, inKind := changelog.KindOfDir(strings.Split(dir, "/")[0])
	for _, e := range entries {
		item := listed{Entry: e}
		var err error
		switch {
		case e.Dir && dir == "":
			err = ls.fillDir(e)
		case !e.Dir && !inKind:
			item.content, err = ls.content(dir, e)
		}
		if err != nil {
			return err
		}
		ls.l.dirs[dir] = append(ls.l.dirs[dir], item)
	}
	return nil
}

// same is the parent's entry for e, at the top of the tree, when the
// parent has it under the same name and hash.
func (ls *lister) same(dir string, e staterepo.Entry) (listed, bool) {
	was, ok := ls.known[e.Blob]
	return was, ok && dir == "" && was.Name == e.Name && was.Dir == e.Dir
}

// fillDir lists the directory e at the top of the tree.
func (ls *lister) fillDir(e staterepo.Entry) error {
	if _, same := ls.same("", e); same {
		ls.l.dirs[e.Name] = ls.parent.entries(e.Name)
		return nil
	}
	sub, err := ls.rd.repo.TreeEntries(e.Blob)
	if err != nil {
		return err
	}
	return ls.fill(e.Name, sub)
}

// content is what the listing keeps of file e, outside the kinds'
// directories: its content, unless too large (nil).
func (ls *lister) content(dir string, e staterepo.Entry) ([]byte, error) {
	if was, same := ls.same(dir, e); same {
		return was.content, nil
	}
	data, err := ls.rd.repo.ReadBlob(e.Blob)
	if err != nil || len(data) > maxListedContent {
		return nil, err
	}
	return data, nil
}

// entries lists a directory at the top of the tree ("" for the top).
func (l *listing) entries(dir string) []listed { return l.dirs[dir] }

// find returns the entry at p, a path at most two deep.
func (l *listing) find(p string) (listed, bool) {
	dir, name := "", p
	if i := strings.IndexByte(p, '/'); i >= 0 {
		dir, name = p[:i], p[i+1:]
	}
	for _, e := range l.dirs[dir] {
		if e.Name == name {
			return e, true
		}
	}
	return listed{}, false
}

// FileAt returns the content of the file at p in commit's tree; an error
// wrapping os.ErrNotExist when there is none. Small files near the top of
// the tree come from the commit's listing, without opening git.
func (rd *Store) FileAt(commit staterepo.Hash, p string) ([]byte, error) {
	if strings.Count(p, "/") > 1 {
		return rd.repo.ReadFile(commit, p)
	}
	l, err := rd.listing(commit)
	if err != nil {
		return nil, err
	}
	e, ok := l.find(p)
	if !ok || e.Dir {
		return nil, fmt.Errorf("failed to read %s: %w", p, os.ErrNotExist)
	}
	if e.content != nil {
		return e.content, nil
	}
	return rd.repo.ReadBlob(e.Blob)
}

// saveListing writes l atomically and drops the oldest listings beyond
// keepListings.
func saveListing(file string, l *listing) error {
	b := []byte(listingMagic)
	b = binary.LittleEndian.AppendUint32(b, listingVersion)
	b = binary.AppendVarint(b, l.time.UnixNano())
	_, offset := l.time.Zone()
	b = binary.AppendVarint(b, int64(offset))
	dirs := slices.Sorted(maps.Keys(l.dirs))
	b = binary.AppendUvarint(b, uint64(len(dirs)))
	for _, d := range dirs {
		b = appendString(b, d)
		b = binary.AppendUvarint(b, uint64(len(l.dirs[d])))
		for _, e := range l.dirs[d] {
			b = appendString(b, e.Name)
			b = appendFlag(b, e.Dir)
			b = append(b, e.Blob[:]...)
			b = appendFlag(b, e.content != nil)
			if e.content != nil {
				b = appendString(b, string(e.content))
			}
		}
	}
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli()))
	if err := writeCacheFile(file, b); err != nil {
		return err
	}
	dir := filepath.Dir(file)
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > keepListings {
		pruneOldest(dir, entries, keepListings)
	}
	return nil
}

// readListing reads a listing file; one damaged or of another version is
// an error, and the listing is made again from git.
func readListing(file string) (*listing, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if len(data) < len(listingMagic)+8 || string(data[:len(listingMagic)]) != listingMagic {
		return nil, errDamaged
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.Checksum(body, castagnoli()) != sum {
		return nil, errDamaged
	}
	if v := binary.LittleEndian.Uint32(body[len(listingMagic):]); v != listingVersion {
		return nil, fmt.Errorf("listing of version %d, not %d", v, listingVersion)
	}
	d := &decoder{b: body[len(listingMagic)+4:]}
	l := &listing{time: time.Unix(0, d.int()).UTC(), dirs: map[string][]listed{}}
	if offset := d.int(); offset != 0 {
		l.time = l.time.In(time.FixedZone("", int(offset)))
	}
	n := d.uint()
	for i := uint64(0); i < n && d.err == nil; i++ {
		dir := d.str()
		m := d.uint()
		if m > uint64(len(d.b)) {
			return nil, errDamaged
		}
		entries := make([]listed, 0, m)
		for range m {
			var e listed
			e.Name, e.Dir = d.str(), d.flag()
			copy(e.Blob[:], d.bytes(uint64(len(e.Blob))))
			if d.flag() {
				e.content = []byte(d.str())
			}
			entries = append(entries, e)
		}
		l.dirs[dir] = entries
	}
	if d.err == nil && len(d.b) != 0 {
		d.fail()
	}
	if d.err != nil {
		return nil, d.err
	}
	return l, nil
}

// CommitTime is when commit was made, from its listing.
func (rd *Store) CommitTime(commit staterepo.Hash) (time.Time, error) {
	l, err := rd.listing(commit)
	if err != nil {
		return time.Time{}, err
	}
	return l.time, nil
}

// File is one file of a directory at the top of a commit's tree.
type File struct {
	Name    string
	Blob    staterepo.Hash
	Content []byte
}

// Files lists the files of dir, a directory at the top of commit's tree,
// with their content: from the commit's listing when it keeps it, else
// from git.
func (rd *Store) Files(commit staterepo.Hash, dir string) ([]File, error) {
	l, err := rd.listing(commit)
	if err != nil {
		return nil, err
	}
	var out []File
	for _, e := range l.entries(dir) {
		if e.Dir {
			continue
		}
		out = append(out, File{Name: e.Name, Blob: e.Blob, Content: e.content})
	}
	return out, nil
}

// ReadBlob reads a file's content from git.
func (rd *Store) ReadBlob(blob staterepo.Hash) ([]byte, error) { return rd.readBlob(blob) }
