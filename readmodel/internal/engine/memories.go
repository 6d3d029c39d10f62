package engine

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/search"
	"github.com/planq-dev/planq/staterepo"
)

// Memories are the files the memory tool keeps in one branch's memories/
// folder, as the read model keeps them: read once per tree of that folder,
// with their search index, in one file, <cache>/memories/<tree>.mem, named
// by the tree's hash like the articles' (articles.go), so never stale.
// A memory is a plain text file a model edits in place, with no
// frontmatter: what it says is its first line (its title), its path and
// its text.
//
//	magic, version (u32 LE)
//	memories  count, then each: path, blob, title, text
//	skipped   count, then each: path, blob, size, why
//	index     the memories' search index (package search's format,
//	          document i being memory i)
//	CRC-32C of all of the above (u32 LE)
//
// A file that is not text (binary, or not UTF-8) or is larger than a
// record may be is skipped: listed, never indexed. A new tree is built from
// the newest file there is: a memory of the same path and blob is taken
// from it, so one changed memory costs one read.
type Memories struct {
	// List holds the memories indexed, by path.
	List []MemoryFile
	// Skipped holds the files that are not indexed, by path.
	Skipped []SkippedMemory
	index   *search.Index
}

// MemoryFile is one memory and its file.
type MemoryFile struct {
	// Path is relative to the top of the branch: memories/....
	Path  string
	Blob  staterepo.Hash
	Title string
	Text  string
}

// SkippedMemory is a file of memories/ that is not indexed, and why.
type SkippedMemory struct {
	Path string
	Blob staterepo.Hash
	Size int64
	Why  string
}

const (
	memoriesMagic   = "planq-memories\n"
	memoriesVersion = 1
	// keepMemorySets bounds the files kept: a few trees per branch.
	keepMemorySets = 64
)

func (rd *Store) memoriesFile(tree staterepo.Hash) string {
	return filepath.Join(rd.cacheDir, "memories", tree.String()+".mem")
}

// MemoriesAt are the memories of commit's tree: from memory, from their
// file, or built from git (and from the newest file there is). None when
// the tree has no memories/ folder.
func (rd *Store) MemoriesAt(commit staterepo.Hash) (*Memories, error) {
	l, err := rd.listing(commit)
	if err != nil {
		return nil, err
	}
	dir, ok := l.find(project.MemoriesDir)
	if !ok || !dir.Dir {
		return &Memories{}, nil
	}
	tree := dir.Blob
	rd.mu.Lock()
	m, ok := rd.memorySets[tree]
	rd.mu.Unlock()
	if ok {
		return m, nil
	}
	if m, err = readMemories(rd.memoriesFile(tree)); err != nil {
		if m, err = rd.buildMemories(tree); err != nil {
			return nil, err
		}
	}
	rd.mu.Lock()
	defer rd.mu.Unlock()
	if rd.memorySets == nil || len(rd.memorySets) >= keepMemorySets {
		rd.memorySets = map[staterepo.Hash]*Memories{}
	}
	rd.memorySets[tree] = m
	return m, nil
}

// SearchIndex is the memories' search index, document i being List[i].
func (m *Memories) SearchIndex() *search.Index { return m.index }

// memoryText says whether data is a memory the read model indexes, and
// why not when it is not.
func memoryText(data []byte) (bool, string) {
	switch {
	case len(data) > changelog.MaxRecordSize:
		return false, fmt.Sprintf("over %d KiB", changelog.MaxRecordSize>>10)
	case bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data):
		return false, "not text"
	}
	return true, ""
}

// buildMemories reads the memories of tree, the memories/ folder, from
// git, taking those the newest file holds (same path, same blob) from
// there, and keeps the result.
func (rd *Store) buildMemories(tree staterepo.Hash) (*Memories, error) {
	rd.builds.begin()
	defer rd.builds.end()
	files, err := rd.repo.WalkTree(tree, nil)
	if err != nil {
		return nil, err
	}
	type kept struct {
		file MemoryFile
		doc  search.Indexed
	}
	prev := map[string]kept{}
	prevSkipped := map[string]SkippedMemory{}
	if old, data := rd.newestMemories(); old != nil {
		if docs, err := search.Docs(data); err == nil && len(docs) == len(old.List) {
			for i, f := range old.List {
				prev[f.Path+"\x00"+f.Blob.String()] = kept{f, docs[i]}
			}
		}
		for _, s := range old.Skipped {
			prevSkipped[s.Path+"\x00"+s.Blob.String()] = s
		}
	}
	set := &Memories{}
	var list []kept
	for _, f := range files {
		p := project.MemoriesDir + "/" + f.Path
		key := p + "\x00" + f.Blob.String()
		if k, ok := prev[key]; ok {
			list = append(list, k)
			continue
		}
		if s, ok := prevSkipped[key]; ok {
			set.Skipped = append(set.Skipped, s)
			continue
		}
		data, err := rd.readBlob(f.Blob)
		if err != nil {
			return nil, err
		}
		rd.builds.parsedOne()
		if ok, why := memoryText(data); !ok {
			set.Skipped = append(set.Skipped, SkippedMemory{Path: p, Blob: f.Blob, Size: int64(len(data)), Why: why})
			continue
		}
		text := string(data)
		title := search.MemoryTitle(p, text)
		list = append(list, kept{MemoryFile{Path: p, Blob: f.Blob, Title: title, Text: text}, search.DocOfMemory(p, title, text).Index()})
	}
	slices.SortFunc(list, func(x, y kept) int { return strings.Compare(x.file.Path, y.file.Path) })
	slices.SortFunc(set.Skipped, func(x, y SkippedMemory) int { return strings.Compare(x.Path, y.Path) })
	docs := make([]search.Indexed, len(list))
	for i, k := range list {
		set.List = append(set.List, k.file)
		docs[i] = k.doc
	}
	index := search.Encode(docs)
	// A file that cannot be kept costs time, never a read.
	if err := writeCacheFile(rd.memoriesFile(tree), encodeMemories(set, index)); err == nil {
		d := filepath.Dir(rd.memoriesFile(tree))
		if entries, err := os.ReadDir(d); err == nil && len(entries) > keepMemorySets {
			pruneOldest(d, entries, keepMemorySets)
		}
	}
	if set.index, err = search.OpenIndex(index); err != nil {
		return nil, err
	}
	return set, nil
}

// newestMemories reads the most recently written file of memories,
// whatever its tree, and its index; nil when none reads.
func (rd *Store) newestMemories() (*Memories, []byte) {
	d := filepath.Join(rd.cacheDir, "memories")
	entries, err := os.ReadDir(d)
	if err != nil {
		return nil, nil
	}
	var best string
	var bestAt time.Time
	for _, e := range entries {
		if info, err := e.Info(); err == nil && filepath.Ext(e.Name()) == ".mem" && info.ModTime().After(bestAt) {
			best, bestAt = e.Name(), info.ModTime()
		}
	}
	if best == "" {
		return nil, nil
	}
	set, index, err := decodeMemoriesFile(filepath.Join(d, best))
	if err != nil {
		return nil, nil
	}
	return set, index
}

func encodeMemories(set *Memories, index []byte) []byte {
	b := []byte(memoriesMagic)
	b = binary.LittleEndian.AppendUint32(b, memoriesVersion)
	b = binary.AppendUvarint(b, uint64(len(set.List)))
	for _, f := range set.List {
		b = appendString(b, f.Path)
		b = append(b, f.Blob[:]...)
		b = appendString(b, f.Title)
		b = appendString(b, f.Text)
	}
	b = binary.AppendUvarint(b, uint64(len(set.Skipped)))
	for _, s := range set.Skipped {
		b = appendString(b, s.Path)
		b = append(b, s.Blob[:]...)
		b = binary.AppendVarint(b, s.Size)
		b = appendString(b, s.Why)
	}
	b = binary.AppendUvarint(b, uint64(len(index)))
	b = append(b, index...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli()))
}

// readMemories reads a file of memories and opens its index; an error
// when it is missing, damaged or of another version, and the memories are
// built again from git.
func readMemories(file string) (*Memories, error) {
	set, index, err := decodeMemoriesFile(file)
	if err != nil {
		return nil, err
	}
	ix, err := search.OpenIndex(index)
	if err == nil && ix.Len() != len(set.List) {
		err = errDamaged
	}
	if err != nil {
		return nil, err
	}
	set.index = ix
	return set, nil
}

func decodeMemoriesFile(file string) (*Memories, []byte, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, nil, err
	}
	if len(data) < len(memoriesMagic)+8 || string(data[:len(memoriesMagic)]) != memoriesMagic {
		return nil, nil, errDamaged
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.Checksum(body, castagnoli()) != sum {
		return nil, nil, errDamaged
	}
	if v := binary.LittleEndian.Uint32(body[len(memoriesMagic):]); v != memoriesVersion {
		return nil, nil, fmt.Errorf("memories of version %d, not %d", v, memoriesVersion)
	}
	d := &decoder{b: body[len(memoriesMagic)+4:]}
	set := &Memories{}
	n := d.uint()
	if n > uint64(len(d.b)) {
		return nil, nil, errDamaged
	}
	for range n {
		var f MemoryFile
		f.Path = d.str()
		copy(f.Blob[:], d.bytes(uint64(len(f.Blob))))
		f.Title, f.Text = d.str(), d.str()
		set.List = append(set.List, f)
	}
	n = d.uint()
	if n > uint64(len(d.b)) {
		return nil, nil, errDamaged
	}
	for range n {
		var s SkippedMemory
		s.Path = d.str()
		copy(s.Blob[:], d.bytes(uint64(len(s.Blob))))
		s.Size, s.Why = d.int(), d.str()
		set.Skipped = append(set.Skipped, s)
	}
	index := d.bytes(d.uint())
	if d.err == nil && len(d.b) != 0 {
		d.fail()
	}
	if d.err != nil {
		return nil, nil, d.err
	}
	return set, index, nil
}

// MemorySource is one branch whose memories a search reads: its tip, and
// the agent whose branch it is ("" for global).
type MemorySource struct {
	Tip   staterepo.Hash
	Agent string
}

// memoryPart is one branch's memories as one part of a search. A memory
// another part holds already (same path, same blob: one promoted to
// global, say) does not count again. Memories have no type, domain or
// time of their own: a filter by type or domain leaves them out (the index
// has none), and so does a filter by time; a filter by agent keeps those
// of the agents' branches. Hidden, they are searched and counted, never
// returned.
func (m *Memories) memoryPart(src MemorySource, seen map[string]bool, f search.Filters, hidden bool) search.Part {
	counts := make([]bool, len(m.List))
	for i, mf := range m.List {
		key := mf.Path + "\x00" + mf.Blob.String()
		counts[i] = !seen[key]
		seen[key] = true
	}
	keep := !hidden && f.Since.IsZero() && (len(f.Agents) == 0 || (src.Agent != "" && slices.Contains(f.Agents, src.Agent)))
	return search.Part{Index: m.index,
		Counts: func(doc int) bool { return counts[doc] },
		Keep:   func(doc int) bool { return keep && counts[doc] },
		Order:  func(doc int) (int64, uint64) { return 0, IDHash(m.List[doc].Path) },
	}
}
