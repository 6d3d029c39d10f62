package engine

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/search"
	"github.com/planq-dev/planq/staterepo"
)

// A segment holds the parsed records of one shard (one directory under a
// kind's directory, such as log/2026-05 or learnings/db) as one git tree of
// it holds them. It is named by that tree's hash, so it is never stale:
// a new record makes a new tree, and so a new segment, for its shard alone.
//
// The file is laid out so that a view reads only what it shows: a fixed
// header, then a table of fixed-width rows (one per record, sorted oldest
// first) holding what views sort and filter on, then a small table of
// agents, source IDs and problems, then the records themselves, which are
// decoded only for the rows a view picks, and last the search index of the
// records (package search's format, document i being row i), of which a
// query reads only its terms' postings.
//
//	header  magic, version, row count, meta length, bodies length,
//	        CRC-32C of rows and meta, index length (u32 LE)
//	rows    rowSize bytes each, each with the CRC-32C of its record's bytes
//	meta    shard path, agents, source ID hashes, problems, parts
//	bodies  each record as appendRecord writes it
//	index   the records' search index, under checksums of its own
//
// A kind's directory has a segment too, for reads that want all of a kind
// on a branch (every log entry, for log --all, every record for search):
// its rows are those of its shards' segments, one after the other (its
// parts), its index theirs merged, and it has no bodies: a record is
// decoded from its shard's segment. One file per branch and kind instead
// of one per shard.
//
// The checksums make damage an error, never a misread record.
const (
	segmentMagic = "planq-segment\n"
	// SegmentVersion is raised whenever what a segment holds changes, its
	// search index's terms included (9: a record's kind, type and evidence
	// branch are no longer indexed as words), so that caches are rebuilt.
	SegmentVersion = 9
	headerSize     = len(segmentMagic) + 6*4
	rowSize        = 72
	// maxSegmentRows bounds a damaged header's row count.
	maxSegmentRows = 1 << 22
)

// Row flags.
const (
	flagTombstone = 1 << iota
	flagAcknowledged
	flagDisputed
)

// noAgent is a row's To when the record names no agent.
const noAgent = 0xffff

// row is one record's entry in a segment's table.
type row struct {
	at         int64  // timestamp, Unix nanoseconds
	id         uint64 // idHash of the record's ID
	supersedes uint64 // idHash of the ID it replaces, 0 for none
	off, size  uint32 // where its encoding lies in the bodies
	blob       staterepo.Hash
	agent, to  uint16 // indexes into the segment's agents; to is noAgent for none
	kind       uint8  // index into changelog.Kinds
	priority   uint8  // Priority of the record
	flags      uint8
	crc        uint32 // CRC-32C of the record's bytes
	subject    uint64 // idHash of changelog.SubjectKey, for the promoted kinds; 0 for others
}

// castagnoli is the CRC-32C table, made on first use: every command
// would pay for building it at start.
var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

func (r *row) put(b []byte) {
	binary.LittleEndian.PutUint64(b[0:], uint64(r.at))
	binary.LittleEndian.PutUint64(b[8:], r.id)
	binary.LittleEndian.PutUint64(b[16:], r.supersedes)
	binary.LittleEndian.PutUint32(b[24:], r.off)
	binary.LittleEndian.PutUint32(b[28:], r.size)
	copy(b[32:52], r.blob[:])
	binary.LittleEndian.PutUint16(b[52:], r.agent)
	binary.LittleEndian.PutUint16(b[54:], r.to)
	b[56], b[57], b[58] = r.kind, r.priority, r.flags
	binary.LittleEndian.PutUint32(b[60:], r.crc)
	binary.LittleEndian.PutUint64(b[64:], r.subject)
}

func getRow(b []byte) row {
	var r row
	r.at = int64(binary.LittleEndian.Uint64(b[0:]))
	r.id = binary.LittleEndian.Uint64(b[8:])
	r.supersedes = binary.LittleEndian.Uint64(b[16:])
	r.off = binary.LittleEndian.Uint32(b[24:])
	r.size = binary.LittleEndian.Uint32(b[28:])
	copy(r.blob[:], b[32:52])
	r.agent = binary.LittleEndian.Uint16(b[52:])
	r.to = binary.LittleEndian.Uint16(b[54:])
	r.kind, r.priority, r.flags = b[56], b[57], b[58]
	r.crc = binary.LittleEndian.Uint32(b[60:])
	r.subject = binary.LittleEndian.Uint64(b[64:])
	return r
}

// IDHash is the 64-bit FNV-1a hash of a record ID: rows compare IDs by it,
// so that a view needs no record decoded to tell what supersedes what.
func IDHash(id string) uint64 {
	if id == "" {
		return 0
	}
	h := uint64(14695981039346656037)
	for i := 0; i < len(id); i++ {
		h ^= uint64(id[i])
		h *= 1099511628211
	}
	return h | 1 // never 0, which means none
}

// segProblem is a file of the shard that is not a readable record.
type segProblem struct {
	blob staterepo.Hash
	err  *changelog.ParseError
}

// Segment is one shard's records, read from its file or just built.
type Segment struct {
	shard
	rows     []byte
	agents   []string
	sources  []uint64 // idHash of every ID the records name as sources
	problems []segProblem
	// bodies are the records' bytes, indexData their search index: parts
	// of the mapped file, or of the bytes just built.
	bodies    []byte
	indexData []byte
	mu        sync.Mutex          // guards recs and index: an MCP server reads from several goroutines
	recs      []*changelog.Record // decoded records, by row, nil until decoded
	index     *search.Index       // the search index opened, nil until asked

	// A directory's segment: its shards' segments and where their rows
	// begin and end in its own, and how to open one (open) or build it
	// again from git when it is damaged (rebuild).
	parts         []part
	open, rebuild func(shard) (*Segment, error)
}

// part is one shard's rows in a directory's segment.
type part struct {
	shard
	start, end int
}

// Len is the segment's count of rows.
func (s *Segment) Len() int { return len(s.rows) / rowSize }

// Path is the path of the segment's shard (or kind's directory).
func (s *Segment) Path() string { return s.path }

// Tree is the git tree of the shard the segment holds.
func (s *Segment) Tree() staterepo.Hash { return s.tree }

// Sources are the hashes of every ID the segment's records name as
// sources (see IDHash).
func (s *Segment) Sources() []uint64 { return s.sources }

func (s *Segment) row(i int) row { return getRow(s.rows[i*rowSize:]) }

// RowID is the hash of row i's record ID (see IDHash), read alone.
func (s *Segment) RowID(i int) uint64 { return binary.LittleEndian.Uint64(s.rows[i*rowSize+8:]) }

// A row's fields read alone, for loops over many rows that want one or two.
func (s *Segment) rowAt(i int) int64 { return int64(binary.LittleEndian.Uint64(s.rows[i*rowSize:])) }
func (s *Segment) rowSupersedes(i int) uint64 {
	return binary.LittleEndian.Uint64(s.rows[i*rowSize+16:])
}
func (s *Segment) rowAgent(i int) uint16 { return binary.LittleEndian.Uint16(s.rows[i*rowSize+52:]) }
func (s *Segment) rowFlags(i int) uint8  { return s.rows[i*rowSize+58] }

// encodeSegment lays out recs (with their blobs) and problems as a segment
// file. recs must be sorted oldest first.
// docs are the records' search documents, indexed.
func encodeSegment(path string, recs []*changelog.Record, blobs []staterepo.Hash, docs []search.Indexed, problems []segProblem) []byte {
	var agents agentTable
	agentOf := agents.index
	rows := make([]byte, len(recs)*rowSize)
	var bodies []byte
	var sources []uint64
	for i, r := range recs {
		start := len(bodies)
		bodies = appendRecord(bodies, r)
		rw := row{at: r.Timestamp.UnixNano(), id: IDHash(r.ID), supersedes: IDHash(r.Supersedes),
			off: uint32(start), size: uint32(len(bodies) - start), crc: crc32.Checksum(bodies[start:], castagnoli()), blob: blobs[i],
			agent: agentOf(r.Agent), to: noAgent, kind: kindIndex(r.Kind), priority: uint8(Priority(r))}
		if r.To != "" {
			rw.to = agentOf(r.To)
		}
		if spec := r.Kind.Spec(); spec != nil && spec.Promoted {
			rw.subject = IDHash(changelog.SubjectKey(r))
		}
		if r.Tombstone {
			rw.flags |= flagTombstone
		}
		if r.Status == changelog.StatusAcknowledged {
			rw.flags |= flagAcknowledged
		}
		if r.Status == changelog.StatusDisputed {
			rw.flags |= flagDisputed
		}
		rw.put(rows[i*rowSize:])
		for _, src := range r.Sources {
			sources = append(sources, IDHash(src.ID))
		}
	}
	return assemble(rows, appendMeta(path, agents.names, sources, problems, nil), bodies, search.Encode(docs))
}

// agentTable numbers the agents a segment's rows name.
type agentTable struct {
	names  []string
	byName map[string]uint16
}

func (t *agentTable) index(name string) uint16 {
	i, ok := t.byName[name]
	if !ok {
		if t.byName == nil {
			t.byName = map[string]uint16{}
		}
		i = uint16(len(t.names))
		t.byName[name] = i
		t.names = append(t.names, name)
	}
	return i
}

func appendMeta(path string, agents []string, sources []uint64, problems []segProblem, parts []part) []byte {
	meta := appendString(nil, path)
	meta = appendStrings(meta, agents)
	meta = binary.AppendUvarint(meta, uint64(len(sources)))
	for _, h := range sources {
		meta = binary.LittleEndian.AppendUint64(meta, h)
	}
	meta = binary.AppendUvarint(meta, uint64(len(problems)))
	for _, p := range problems {
		meta = append(meta, p.blob[:]...)
		meta = appendString(meta, p.err.Path)
		meta = binary.AppendUvarint(meta, uint64(p.err.Line))
		meta = appendString(meta, p.err.Msg)
	}
	meta = binary.AppendUvarint(meta, uint64(len(parts)))
	for _, p := range parts {
		meta = appendString(meta, p.path)
		meta = append(meta, p.tree[:]...)
		meta = binary.AppendUvarint(meta, uint64(p.start))
		meta = binary.AppendUvarint(meta, uint64(p.end))
	}
	return meta
}

// assemble lays out a segment file: header, rows, meta, bodies, index.
func assemble(rows, meta, bodies, index []byte) []byte {
	out := make([]byte, 0, headerSize+len(rows)+len(meta)+len(bodies)+len(index))
	out = append(out, segmentMagic...)
	sum := crc32.Update(crc32.Checksum(rows, castagnoli()), castagnoli(), meta)
	for _, n := range []uint32{SegmentVersion, uint32(len(rows) / rowSize), uint32(len(meta)), uint32(len(bodies)), sum, uint32(len(index))} {
		out = binary.LittleEndian.AppendUint32(out, n)
	}
	out = append(out, rows...)
	out = append(out, meta...)
	out = append(out, bodies...)
	return append(out, index...)
}

func kindIndex(k changelog.Kind) uint8 {
	if i := slices.Index(changelog.Kinds, k); i >= 0 {
		return uint8(i)
	}
	return 0xff
}

// readSegment maps a segment file into memory and checks its header,
// rows and meta; its bodies and index are read from the mapping as views
// ask for them, so a read copies nothing it does not decode. A file of
// another version, of another shard, cut short or damaged is an error: the
// caller rebuilds it from git. Segment files are replaced whole (renamed
// over), never written in place, so a mapping never sees one change.
func readSegment(file string, sh shard) (*Segment, error) {
	data, err := mapFile(file)
	if err != nil {
		return nil, err
	}
	s, err := parseSegment(data, sh)
	if err != nil {
		unmap(data)
		return nil, err
	}
	// The mapping lives as long as the segment: everything decoded from it
	// is copied out, and what slices it (rows, bodies, index) is the
	// segment's own.
	runtime.AddCleanup(s, unmap, data)
	return s, nil
}

func parseSegment(data []byte, sh shard) (*Segment, error) {
	size := int64(len(data))
	if size < int64(headerSize) || string(data[:len(segmentMagic)]) != segmentMagic {
		return nil, errDamaged
	}
	if v := uint32At(data, 0); v != SegmentVersion {
		return nil, fmt.Errorf("segment of version %d, not %d", v, SegmentVersion)
	}
	n, metaN, bodiesN, indexN := int64(uint32At(data, 1)), int64(uint32At(data, 2)), int64(uint32At(data, 3)), int64(uint32At(data, 5))
	if n > maxSegmentRows || int64(headerSize)+n*rowSize+metaN+bodiesN+indexN != size {
		return nil, errDamaged
	}
	end := int64(headerSize) + n*rowSize + metaN
	prefix := data[headerSize:end]
	if crc32.Checksum(prefix, castagnoli()) != uint32At(data, 4) {
		return nil, errDamaged
	}
	s := &Segment{shard: sh, rows: prefix[:n*rowSize], bodies: data[end : end+bodiesN], indexData: data[end+bodiesN:]}
	if err := s.readMeta(prefix[n*rowSize:], sh.path); err != nil {
		return nil, err
	}
	if err := s.check(); err != nil {
		return nil, err
	}
	return s, nil
}

// check holds the rows to the segment's tables: every agent they name is
// in the table, every record's bytes in the bodies (or, in a directory's
// segment, every row in one part).
func (s *Segment) check() error {
	le := binary.LittleEndian
	for i := range s.Len() { // every open of a segment: the fields alone, not whole rows
		b := s.rows[i*rowSize:]
		off, size, agent, to := le.Uint32(b[24:]), le.Uint32(b[28:]), le.Uint16(b[52:]), le.Uint16(b[54:])
		if (s.parts == nil && uint64(off)+uint64(size) > uint64(len(s.bodies))) || int(agent) >= len(s.agents) ||
			(to != noAgent && int(to) >= len(s.agents)) {
			return errDamaged
		}
	}
	next := 0
	for _, p := range s.parts {
		if p.start != next || p.end < p.start {
			return errDamaged
		}
		next = p.end
	}
	if s.parts != nil && next != s.Len() {
		return errDamaged
	}
	return nil
}

func (s *Segment) readMeta(b []byte, path string) error {
	d := &decoder{b: b}
	if kept := d.str(); d.err == nil && kept != path {
		return fmt.Errorf("segment of %s, not %s", kept, path)
	}
	s.agents = d.strs()
	n := d.uint()
	if n > uint64(len(d.b))/8 {
		return errDamaged
	}
	s.sources = make([]uint64, n)
	for i := range s.sources {
		s.sources[i] = binary.LittleEndian.Uint64(d.bytes(8))
	}
	n = d.uint()
	if n > uint64(len(d.b)) {
		return errDamaged
	}
	for range n {
		var blob staterepo.Hash
		copy(blob[:], d.bytes(uint64(len(blob))))
		p := &changelog.ParseError{Path: d.str(), Line: int(d.uint()), Msg: d.str()}
		s.problems = append(s.problems, segProblem{blob: blob, err: p})
	}
	n = d.uint()
	if n > uint64(len(d.b)) {
		return errDamaged
	}
	for range n {
		var p part
		p.path = d.str()
		copy(p.tree[:], d.bytes(uint64(len(p.tree))))
		p.start, p.end = int(d.uint()), int(d.uint())
		s.parts = append(s.parts, p)
	}
	if d.err == nil && len(d.b) != 0 {
		d.fail()
	}
	return d.err
}

// Record decodes row i's record, reading only its bytes from the file
// unless all the bodies are read already.
func (s *Segment) Record(i int) (*changelog.Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.recordLocked(i)
}

func (s *Segment) recordLocked(i int) (*changelog.Record, error) {
	if s.parts != nil {
		p := s.partOf(i)
		return s.childRecord(p, i-p.start)
	}
	if s.recs == nil {
		s.recs = make([]*changelog.Record, s.Len())
	}
	if r := s.recs[i]; r != nil {
		return r, nil
	}
	r, err := s.decode(i)
	if err != nil {
		return nil, err
	}
	s.recs[i] = r
	return r, nil
}

// Transient returns record i of a segment of records (not of directory
// parts) without keeping it: the one kept if another reader decoded it,
// else a fresh decoding that is garbage once the caller is done. A pass
// over every record (embedding them all) would otherwise hold the whole
// shard's records for the segment's life.
func (s *Segment) Transient(i int) (*changelog.Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.parts != nil {
		return s.recordLocked(i)
	}
	if s.recs != nil && s.recs[i] != nil {
		return s.recs[i], nil
	}
	return s.decode(i)
}

// decode reads and checks record i of a segment of records.
func (s *Segment) decode(i int) (*changelog.Record, error) {
	rw := s.row(i)
	b := s.bodies[rw.off : rw.off+rw.size] // check holds every row to the bodies
	if crc32.Checksum(b, castagnoli()) != rw.crc {
		return nil, fmt.Errorf("failed to read record %d of %s: %w", i, s.path, errDamaged)
	}
	r, err := decodeRecord(b)
	if err != nil {
		return nil, fmt.Errorf("failed to read record %d of %s: %w", i, s.path, err)
	}
	if r.Path != s.path+"/"+r.ID+".md" || IDHash(r.ID) != rw.id {
		return nil, fmt.Errorf("failed to read record %d of %s: %w", i, s.path, errDamaged)
	}
	return r, nil
}

// partOf is the part that holds row i of a directory's segment.
func (s *Segment) partOf(i int) part {
	j, _ := slices.BinarySearchFunc(s.parts, i, func(p part, i int) int {
		switch {
		case i < p.start:
			return 1
		case i >= p.end:
			return -1
		}
		return 0
	})
	return s.parts[min(j, len(s.parts)-1)]
}

// childRecord decodes row i of part p's shard, built again from git once
// if its segment is damaged.
func (s *Segment) childRecord(p part, i int) (*changelog.Record, error) {
	child, err := s.open(p.shard)
	if err != nil {
		return nil, err
	}
	r, err := child.Record(i)
	if err == nil {
		return r, nil
	}
	if child, err = s.rebuild(p.shard); err != nil {
		return nil, err
	}
	return child.Record(i)
}

func (s *Segment) childRecords(p part) ([]*changelog.Record, error) {
	child, err := s.open(p.shard)
	if err != nil {
		return nil, err
	}
	recs, err := child.records()
	if err == nil && len(recs) == p.end-p.start {
		return recs, nil
	}
	if child, err = s.rebuild(p.shard); err != nil {
		return nil, err
	}
	return child.records()
}

// records decodes every row's record.
func (s *Segment) records() ([]*changelog.Record, error) {
	if s.parts != nil {
		var out []*changelog.Record
		for _, p := range s.parts {
			recs, err := s.childRecords(p)
			if err != nil {
				return nil, err
			}
			out = append(out, recs...)
		}
		return out, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*changelog.Record, s.Len())
	for i := range out {
		r, err := s.recordLocked(i)
		if err != nil {
			return nil, err
		}
		out[i] = r
	}
	return out, nil
}

// misplacedProblem is the problem of a file that is not where a record lives.
func misplacedProblem(p string) *changelog.ParseError {
	return &changelog.ParseError{Path: p,
		Msg: "is not where a record lives (<kind directory>/<shard>/<id>.md), so nothing reads it; move it to its shard"}
}

// Misplaced reports whether path, a file under a kind's directory, looks
// like a record but is not at a record path: a decision at the top of
// decisions/, or one shard too deep. READMEs are planq's own.
func Misplaced(path string) bool {
	return strings.HasSuffix(path, ".md") && !strings.HasSuffix(path, "/"+project.ReadmeFile)
}
