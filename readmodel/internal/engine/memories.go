package engine

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/search"
	"github.com/planq-dev/planq/staterepo"
)

// Memories are the files the memory tool keeps in one branch's memories/
// folder, as the read model keeps them: read once per tree of that folder,
// with their search index, in one file, <cache>/memories/<tree>.mem (a
// DocSet, docs.go). A memory is a plain text file a model edits in place,
// with no frontmatter: what it says is its first line (its title), its
// path and its text.
//
//	memories  each: path, blob, title, text
//	problems  each: path, blob, size, why (the files skipped)
//
// A file that is not text (binary, or not UTF-8) or is larger than a
// record may be is skipped: listed, never indexed, and taken as it is in a
// new tree while its blob is the same.
type Memories = DocSet[MemoryFile, SkippedMemory]

// MemoryFile is one memory and its file.
type MemoryFile struct {
	// Path is relative to the top of the branch: memories/....
	Path  string
	Blob  staterepo.Hash
	Title string
	Text  string
}

func (f MemoryFile) file() (string, staterepo.Hash) { return f.Path, f.Blob }

// SkippedMemory is a file of memories/ that is not indexed, and why.
type SkippedMemory struct {
	Path string
	Blob staterepo.Hash
	Size int64
	Why  string
}

// memoryKind is how the read model reads and keeps memories. Its files are
// bounded to a few trees per branch.
var memoryKind = &docKind[MemoryFile, SkippedMemory]{
	dir:  project.MemoriesDir,
	name: "memories", ext: ".mem",
	magic: "planq-memories\n", version: 1,
	keep:        64,
	read:        readMemory,
	problemFile: func(s SkippedMemory) (string, staterepo.Hash) { return s.Path, s.Blob },
	appendDoc: func(b []byte, f MemoryFile) []byte {
		return appendString(appendString(b, f.Title), f.Text)
	},
	decodeDoc: func(d *decoder, p string, blob staterepo.Hash) MemoryFile {
		f := MemoryFile{Path: p, Blob: blob}
		f.Title, f.Text = d.str(), d.str()
		return f
	},
	appendProblem: func(b []byte, s SkippedMemory) []byte {
		b = appendString(b, s.Path)
		b = append(b, s.Blob[:]...)
		b = binary.AppendVarint(b, s.Size)
		return appendString(b, s.Why)
	},
	decodeProblem: func(d *decoder) SkippedMemory {
		var s SkippedMemory
		s.Path = d.str()
		copy(s.Blob[:], d.bytes(uint64(len(s.Blob))))
		s.Size, s.Why = d.int(), d.str()
		return s
	},
}

// MemoriesAt are the memories of commit's tree: from memory, from their
// file, or built from git (and from the newest file there is). None when
// the tree has no memories/ folder.
func (rd *Store) MemoriesAt(commit staterepo.Hash) (*Memories, error) {
	return memoryKind.at(rd, commit, &rd.memorySets)
}

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

// readMemory reads file p as plain text titled by its first line, or
// skips it.
func readMemory(p string, blob staterepo.Hash, data []byte) (MemoryFile, search.Doc, SkippedMemory, bool, error) {
	if ok, why := memoryText(data); !ok {
		return MemoryFile{}, search.Doc{}, SkippedMemory{Path: p, Blob: blob, Size: int64(len(data)), Why: why}, false, nil
	}
	text := string(data)
	title := search.MemoryTitle(p, text)
	return MemoryFile{Path: p, Blob: blob, Title: title, Text: text}, search.DocOfMemory(p, title, text), SkippedMemory{}, true, nil
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
func memoryPart(m *Memories, src MemorySource, seen map[string]bool, f search.Filters, hidden bool) search.Part {
	counts := make([]bool, len(m.List))
	for i, mf := range m.List {
		key := fileKey(mf.Path, mf.Blob)
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
