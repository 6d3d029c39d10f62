package engine

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/search"
	"github.com/planq-dev/planq/staterepo"
)

// Segment files live under <cache>/segments/<shard key>/<tree hash>.seg, the
// shard key being a hash of the shard's path (a tree of the state repository
// may name a directory anything). Each shard keeps its newest keepPerShard
// segments: one per branch whose tree of the shard differs, typically, and
// the next one is built from the newest of them.
const keepPerShard = 32

// segmentStore is the directory of segment files.
type segmentStore struct{ dir string }

func (st segmentStore) shardDir(path string) string {
	return filepath.Join(st.dir, strconv.FormatUint(IDHash(path), 16))
}

func (st segmentStore) file(path string, tree staterepo.Hash) string {
	return filepath.Join(st.shardDir(path), tree.String()+".seg")
}

// load reads the segment of path at tree; os.ErrNotExist when there is none.
func (st segmentStore) load(sh shard) (*Segment, error) {
	return readSegment(st.file(sh.path, sh.tree), sh)
}

// missing counts the shards that have no segment file, up to limit:
// a look at the directory entries, no file read.
func (st segmentStore) missing(shards []shard, limit int) int {
	n := 0
	for _, sh := range shards {
		if _, err := os.Stat(st.file(sh.path, sh.tree)); err != nil {
			if n++; n == limit {
				break
			}
		}
	}
	return n
}

// newest reads the most recently written segment of path, whatever its
// tree, with its bodies: what a new segment of the shard starts from. Nil
// when there is none that reads.
func (st segmentStore) newest(path string) *Segment {
	best := newestFile(st.shardDir(path), ".seg")
	if best == "" {
		return nil
	}
	s, err := readSegment(filepath.Join(st.shardDir(path), best), shard{path: path})
	if err != nil {
		return nil
	}
	if _, err := s.records(); err != nil {
		return nil
	}
	return s
}

// save writes a segment atomically (readers see the whole file or none; two
// processes writing the same one write the same bytes) and drops the
// shard's oldest segments beyond keepPerShard.
func (st segmentStore) save(path string, tree staterepo.Hash, data []byte) error {
	dir := st.shardDir(path)
	if err := writeCacheFile(st.file(path, tree), data); err != nil {
		return err
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > keepPerShard {
		pruneOldest(dir, entries, keepPerShard)
	}
	return nil
}

// pruneOldest drops the oldest files of dir beyond keep.
func pruneOldest(dir string, entries []os.DirEntry, keep int) {
	type aged struct {
		name string
		at   time.Time
	}
	var files []aged
	for _, e := range entries {
		if info, err := e.Info(); err == nil {
			files = append(files, aged{e.Name(), info.ModTime()})
		}
	}
	slices.SortFunc(files, func(a, b aged) int { return b.at.Compare(a.at) })
	for _, f := range files[min(keep, len(files)):] {
		_ = os.Remove(filepath.Join(dir, f.name)) // another process may have removed it first
	}
}

// shard is one directory of records in one tree.
type shard struct {
	path string
	tree staterepo.Hash
}

// buildSegment makes the segment of sh from git. Incremental, it starts
// from the newest segment of the same shard: a record that one holds (same
// blob, same path) is taken from it, so one new record costs one parse, not
// a shard's.
func (rd *Store) buildSegment(sh shard, incremental bool) (*Segment, error) {
	files, err := rd.repo.WalkTree(sh.tree, nil)
	if err != nil {
		return nil, err
	}
	b := &shardBuild{prev: map[staterepo.Hash]parsedRecord{}, prevProblems: map[staterepo.Hash]*changelog.ParseError{}}
	if old := rd.segments.newest(sh.path); incremental && old != nil {
		b.startFrom(old)
	}
	for _, f := range files {
		if err := rd.buildFile(b, sh.path+"/"+f.Path, f.Blob); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(b.recs, func(a, b parsedRecord) int {
		if c := a.rec.Timestamp.Compare(b.rec.Timestamp); c != 0 {
			return c
		}
		return strings.Compare(a.rec.ID, b.rec.ID)
	})
	sorted := make([]*changelog.Record, len(b.recs))
	blobs := make([]staterepo.Hash, len(b.recs))
	docs := make([]search.Indexed, len(b.recs))
	for i, p := range b.recs {
		sorted[i], blobs[i], docs[i] = p.rec, p.blob, p.doc
	}
	data := encodeSegment(sh.path, sorted, blobs, docs, b.problems)
	// A cache that cannot be written costs time, never a read: the segment
	// is used from memory all the same.
	_ = rd.segments.save(sh.path, sh.tree, data)
	seg, err := decodeBuilt(data, sh)
	if err != nil {
		return nil, err
	}
	seg.recs = sorted
	return seg, nil
}

// parsedRecord is a record of a shard, its blob and its words indexed.
type parsedRecord struct {
	rec  *changelog.Record
	blob staterepo.Hash
	doc  search.Indexed
}

// shardBuild is a shard's segment in the making: the records and problems
// of a segment it starts from, by blob, and those it has.
type shardBuild struct {
	prev         map[staterepo.Hash]parsedRecord
	prevProblems map[staterepo.Hash]*changelog.ParseError
	recs         []parsedRecord
	problems     []segProblem
}

// startFrom takes the records and problems of old, to be taken again
// where the same blob is at the same path.
func (b *shardBuild) startFrom(old *Segment) {
	docs, _ := search.Docs(old.indexData) // a damaged index is built again from the records
	for i := range old.Len() {
		if r, err := old.Record(i); err == nil && len(docs) == old.Len() {
			b.prev[old.row(i).blob] = parsedRecord{r, old.row(i).blob, docs[i]}
		}
	}
	for _, p := range old.problems {
		b.prevProblems[p.blob] = p.err
	}
}

// buildFile adds the file at p, of blob, to the segment: its record, or
// its problem.
func (rd *Store) buildFile(b *shardBuild, p string, blob staterepo.Hash) error {
	if !changelog.IsRecordPath(p) {
		if Misplaced(p) {
			b.problems = append(b.problems, segProblem{blob: blob, err: misplacedProblem(p)})
		}
		return nil
	}
	if r, ok := b.prev[blob]; ok && r.rec.Path == p {
		b.recs = append(b.recs, r)
		return nil
	}
	if pe, ok := b.prevProblems[blob]; ok && pe.Path == p {
		b.problems = append(b.problems, segProblem{blob: blob, err: pe})
		return nil
	}
	data, err := rd.readBlob(blob)
	if err != nil {
		return err
	}
	r, err := changelog.Parse(p, data)
	rd.builds.parsedOne()
	if err != nil {
		var pe *changelog.ParseError
		if !errors.As(err, &pe) {
			return fmt.Errorf("failed to read %s: %w", p, err)
		}
		b.problems = append(b.problems, segProblem{blob: blob, err: pe})
		return nil
	}
	b.recs = append(b.recs, parsedRecord{r, blob, search.DocOf(r).Index()})
	return nil
}

// decodeBuilt reads a segment from its bytes in memory.
func decodeBuilt(data []byte, sh shard) (*Segment, error) {
	if len(data) < headerSize {
		return nil, errDamaged
	}
	n := int(uint32At(data, 1))
	metaN := int(uint32At(data, 2))
	bodiesN := int(uint32At(data, 3))
	rowsEnd := headerSize + n*rowSize
	bodiesAt := rowsEnd + metaN
	s := &Segment{shard: sh, rows: data[headerSize:rowsEnd], bodies: data[bodiesAt : bodiesAt+bodiesN], indexData: data[bodiesAt+bodiesN:]}
	if err := s.readMeta(data[rowsEnd:rowsEnd+metaN], sh.path); err != nil {
		return nil, err
	}
	return s, nil
}

func uint32At(data []byte, field int) uint32 {
	return binary.LittleEndian.Uint32(data[len(segmentMagic)+4*field:])
}

// buildDir makes the segment of a kind's directory: its shards' rows, one
// shard after the other, their agents in one table.
func (rd *Store) buildDir(dir shard) (*Segment, error) {
	entries, err := rd.repo.TreeEntries(dir.tree)
	if err != nil {
		return nil, err
	}
	var rows []byte
	var agents agentTable
	var sources []uint64
	var problems []segProblem
	var children []*Segment
	parts := []part{} // not nil: this is a directory's segment, even an empty one
	for _, e := range entries {
		if !e.Dir {
			continue // files at the top of a kind's directory are the reader's to report
		}
		sh := shard{dir.path + "/" + e.Name, e.Blob}
		child, err := rd.segment(sh)
		if err != nil {
			return nil, err
		}
		start := len(rows) / rowSize
		for i := range child.Len() {
			r := child.row(i)
			r.agent = agents.index(child.agents[r.agent])
			if r.to != noAgent {
				r.to = agents.index(child.agents[r.to])
			}
			rows = append(rows, make([]byte, rowSize)...)
			r.put(rows[len(rows)-rowSize:])
		}
		sources = append(sources, child.sources...)
		problems = append(problems, child.problems...)
		parts = append(parts, part{shard: sh, start: start, end: len(rows) / rowSize})
		children = append(children, child)
	}
	index, err := rd.mergeIndexes(parts, children)
	if err != nil {
		return nil, fmt.Errorf("failed to merge the search indexes of %s: %w", dir.path, err)
	}
	data := assemble(rows, appendMeta(dir.path, agents.names, sources, problems, parts), nil, index)
	_ = rd.segments.save(dir.path, dir.tree, data) // as buildSegment: used from memory all the same
	seg, err := decodeBuilt(data, dir)
	if err != nil {
		return nil, err
	}
	return seg, nil
}

// mergeIndexes merges the search indexes of a directory's shards. Merge
// reads every byte it copies under its checksums, so a directory's index
// never inherits damage; only when it fails is each shard's index checked
// whole, and a damaged one built again from git.
func (rd *Store) mergeIndexes(parts []part, children []*Segment) ([]byte, error) {
	defer runtime.KeepAlive(children) // the indexes are parts of their mappings
	indexes := make([][]byte, len(children))
	sound := true
	for i, child := range children {
		indexes[i] = child.indexData
		if _, err := child.searchIndex(); err != nil { // its head, and a document per row
			sound = false
		}
	}
	if sound {
		if merged, err := search.Merge(indexes); err == nil {
			return merged, nil
		}
	}
	for i, child := range children {
		if search.Check(child.indexData, child.Len()) == nil {
			continue
		}
		rebuilt, err := rd.rebuild(parts[i].shard)
		if err != nil {
			return nil, err
		}
		children[i], indexes[i] = rebuilt, rebuilt.indexData
	}
	merged, err := search.Merge(indexes)
	if err != nil {
		return nil, errors.Join(errDamaged, err)
	}
	return merged, nil
}
