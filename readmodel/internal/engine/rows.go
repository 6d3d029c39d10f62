package engine

import (
	"cmp"
	"container/heap"
	"math"
	"slices"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/staterepo"
)

// Ref is one record as a view sees it first: what views sort and filter on,
// copied from its row, and where the rest is. Views sort and filter refs,
// and decode only the records they show (Decode).
type Ref struct {
	seg        *Segment
	at         int64
	id         uint64
	supersedes uint64
	subject    uint64
	i          int32
	agentIndex uint16
	kindIndex  uint8
	priority   uint8
	flags      uint8
}

func (r Ref) agent() string        { return r.seg.agents[r.agentIndex] }
func (r Ref) kind() changelog.Kind { return kindAt(r.kindIndex) }

// Agent is the agent that wrote the ref's record.
func (r Ref) Agent() string { return r.agent() }

// Kind is the kind of the ref's record.
func (r Ref) Kind() changelog.Kind { return r.kind() }

// ID is the hash of the record's ID (see IDHash).
func (r Ref) ID() uint64 { return r.id }

// Supersedes is the hash of the ID the record supersedes, 0 for none.
func (r Ref) Supersedes() uint64 { return r.supersedes }

// Subject is the hash of the record's changelog.SubjectKey, for the
// promoted kinds; 0 for the others.
func (r Ref) Subject() uint64 { return r.subject }

// At is the record's time, in Unix nanoseconds.
func (r Ref) At() int64 { return r.at }

// Priority is the record's rank for reading (see Priority).
func (r Ref) Priority() uint8 { return r.priority }

// Tombstone reports whether the record retracts another.
func (r Ref) Tombstone() bool { return r.flags&flagTombstone != 0 }

// Disputed reports whether the record is disputed.
func (r Ref) Disputed() bool { return r.flags&flagDisputed != 0 }

// Segment is the segment whose row the ref is, Row that row.
func (r Ref) Segment() *Segment { return r.seg }

// Row is the ref's row in its Segment.
func (r Ref) Row() int { return int(r.i) }

func kindAt(i uint8) changelog.Kind {
	if int(i) < len(changelog.Kinds) {
		return changelog.Kinds[i]
	}
	return ""
}

// RowSet is the rows of the kinds' shards in the trees of some tips.
type RowSet struct {
	refs     []Ref // each record once; oldest first after byTime
	segs     []*Segment
	problems []*changelog.ParseError
	// rings are the versions current keeps of rings of versions (see
	// ringBreaks), which readers mark; found by current.
	rings map[uint64]uint64
}

// Refs are the set's records, each once: oldest first after ByTime.
func (rs *RowSet) Refs() []Ref { return rs.refs }

// Segments are the segments the set's rows are of.
func (rs *RowSet) Segments() []*Segment { return rs.segs }

// Problems are the files of the set's trees that are not readable records.
func (rs *RowSet) Problems() []*changelog.ParseError { return rs.problems }

// Rings are the versions Current kept of rings of versions, for MarkRings.
func (rs *RowSet) Rings() map[uint64]uint64 { return rs.rings }

// Rows lists the records of the kinds (every kind when none) in the trees
// of tips, without decoding any: each record once, in no order until byTime.
func (rd *Store) Rows(tips []staterepo.Hash, kinds ...changelog.Kind) (*RowSet, error) {
	segs, problems, err := rd.Segments(tips, kinds)
	if err != nil {
		return nil, err
	}
	return RowsOf(segs, WithSegmentProblems(problems, segs)), nil
}

// WithSegmentProblems is problems and the files of segs that are not
// readable records, each once.
func WithSegmentProblems(problems []*changelog.ParseError, segs []*Segment) []*changelog.ParseError {
	for _, s := range segs {
		for _, p := range s.problems {
			problems = append(problems, p.err)
		}
	}
	return uniqueProblems(problems)
}

// ByTime orders the refs oldest first, ties by ID, as SortByTime does.
// Each segment is in that order already, and month shards do not overlap,
// so the sort mostly meets runs it need not move.
func (rs *RowSet) ByTime() []Ref {
	slices.SortFunc(rs.refs, func(a, b Ref) int {
		if a.at != b.at {
			return cmp.Compare(a.at, b.at)
		}
		return CompareIDs(a, b)
	})
	return rs.refs
}

// CompareIDs orders two records of the same time by ID, as SortByTime does;
// it decodes them, which only ties need.
func CompareIDs(a, b Ref) int {
	ra, errA := a.seg.Record(int(a.i))
	rb, errB := b.seg.Record(int(b.i))
	if errA != nil || errB != nil {
		return 0
	}
	switch {
	case ra.ID < rb.ID:
		return -1
	case ra.ID > rb.ID:
		return 1
	}
	return 0
}

// Current keeps the refs that are the latest version of something live:
// not superseded by another of the set, and no tombstone; of a ring of
// versions, the newest (see ringBreaks), noted in rs.rings.
func (rs *RowSet) Current() []Ref {
	var edges []versionEdge
	for _, r := range rs.refs {
		if r.supersedes != 0 {
			edges = append(edges, refEdge(r))
		}
	}
	rs.rings = ringBreaks(edges)
	replaced := replacedBy(edges, rs.rings)
	out := make([]Ref, 0, len(rs.refs))
	for _, r := range rs.refs {
		if !replaced[r.id] && r.flags&flagTombstone == 0 {
			out = append(out, r)
		}
	}
	return out
}

// Decode returns the records of refs, in order. A segment whose record does
// not decode is damaged: it is built again from git, and read from there.
func (rd *Store) Decode(refs []Ref) ([]*changelog.Record, error) {
	// Each record is read from its shard's segment.
	type at struct {
		seg *Segment
		i   int
	}
	where := make([]at, len(refs))
	for k, r := range refs {
		seg, i := r.seg, int(r.i)
		if seg.parts != nil {
			p := seg.partOf(i)
			child, err := seg.open(p.shard)
			if err != nil {
				return nil, err
			}
			seg, i = child, i-p.start
		}
		where[k] = at{seg, i}
	}
	out := make([]*changelog.Record, len(refs))
	for k, w := range where {
		rec, err := w.seg.Record(w.i)
		if err != nil {
			if rec, err = rd.decodeRebuilt(w.seg, refs[k].id); err != nil {
				return nil, err
			}
		}
		out[k] = rec
	}
	return out, nil
}

// decodeRebuilt builds a damaged shard's segment again and decodes the
// record with id from it.
func (rd *Store) decodeRebuilt(damaged *Segment, id uint64) (*changelog.Record, error) {
	seg, err := rd.rebuild(damaged.shard)
	if err != nil {
		return nil, err
	}
	for i := range seg.Len() {
		if seg.row(i).id == id {
			return seg.Record(i)
		}
	}
	return nil, errDamaged
}

// FirstBy returns the first k of refs in order, sorting only those: a heap
// of k holds the best seen, its worst on top. A k of 0 or less keeps all.
func FirstBy(refs []Ref, k int, order func(a, b Ref) int) []Ref {
	if k <= 0 || k >= len(refs) {
		out := slices.Clone(refs)
		slices.SortFunc(out, order)
		return out
	}
	h := &refHeap{order: order}
	for _, r := range refs {
		if h.Len() < k {
			heap.Push(h, r)
		} else if order(r, h.refs[0]) < 0 {
			h.refs[0] = r
			heap.Fix(h, 0)
		}
	}
	slices.SortFunc(h.refs, order)
	return h.refs
}

// refHeap keeps the worst of its refs, by order, on top.
type refHeap struct {
	refs  []Ref
	order func(a, b Ref) int
}

func (h *refHeap) Len() int           { return len(h.refs) }
func (h *refHeap) Less(i, j int) bool { return h.order(h.refs[i], h.refs[j]) > 0 }
func (h *refHeap) Swap(i, j int)      { h.refs[i], h.refs[j] = h.refs[j], h.refs[i] }
func (h *refHeap) Push(x any)         { h.refs = append(h.refs, x.(Ref)) }
func (h *refHeap) Pop() any {
	r := h.refs[len(h.refs)-1]
	h.refs = h.refs[:len(h.refs)-1]
	return r
}

// RowsOf is Rows, over segments already open.
func RowsOf(segs []*Segment, problems []*changelog.ParseError) *RowSet {
	n := 0
	for _, s := range segs {
		n += s.Len()
	}
	rs := &RowSet{refs: make([]Ref, 0, n), segs: segs, problems: problems}
	seen := make(map[uint64]bool, n)
	for _, s := range segs {
		for i := range s.Len() {
			if r := RefAt(s, i); !seen[r.id] {
				seen[r.id] = true
				rs.refs = append(rs.refs, r)
			}
		}
	}
	return rs
}

// RefAt is row i of s as a view sees it.
func RefAt(s *Segment, i int) Ref {
	r := s.row(i)
	return Ref{seg: s, at: r.at, id: r.id, supersedes: r.supersedes, subject: r.subject, i: int32(i),
		agentIndex: r.agent, kindIndex: r.kind, priority: r.priority, flags: r.flags}
}

// NewestFirst orders records newest first: by time, ties by ID, the
// reverse of changelog.SortByTime.
func NewestFirst(a, b Ref) int {
	if a.at != b.at {
		return cmp.Compare(b.at, a.at)
	}
	return CompareIDs(b, a)
}

// SinceNanos is the Unix nanosecond a row's time must reach to be no
// earlier than since, clamped to the times a row can hold (UnixNano's
// result is undefined outside them).
func SinceNanos(since time.Time) int64 {
	switch {
	case since.IsZero() || since.Before(time.Unix(0, math.MinInt64)):
		return math.MinInt64
	case since.After(time.Unix(0, math.MaxInt64)):
		return math.MaxInt64
	}
	return since.UnixNano()
}
