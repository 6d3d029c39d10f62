package readmodel

import (
	"cmp"
	"container/heap"
	"slices"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/staterepo"
)

// ref is one record as a view sees it first: what views sort and filter on,
// copied from its row, and where the rest is. Views sort and filter refs,
// and decode only the records they show.
type ref struct {
	seg        *segment
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

func (r ref) agent() string        { return r.seg.agents[r.agentIndex] }
func (r ref) kind() changelog.Kind { return kindAt(r.kindIndex) }

func kindAt(i uint8) changelog.Kind {
	if int(i) < len(changelog.Kinds) {
		return changelog.Kinds[i]
	}
	return ""
}

// rowSet is the rows of the kinds' shards in the trees of some tips.
type rowSet struct {
	refs     []ref // each record once; oldest first after byTime
	segs     []*segment
	problems []*changelog.ParseError
	// rings are the versions current keeps of rings of versions (see
	// ringBreaks), which readers mark; found by current.
	rings map[uint64]uint64
}

// rows lists the records of the kinds (every kind when none) in the trees
// of tips, without decoding any: each record once, in no order until byTime.
func (rd *Reader) rows(tips []staterepo.Hash, kinds ...changelog.Kind) (*rowSet, error) {
	segs, problems, err := rd.segmentsOf(tips, kinds)
	if err != nil {
		return nil, err
	}
	return rowsOf(segs, withSegmentProblems(problems, segs)), nil
}

// withSegmentProblems is problems and the files of segs that are not
// readable records, each once.
func withSegmentProblems(problems []*changelog.ParseError, segs []*segment) []*changelog.ParseError {
	for _, s := range segs {
		for _, p := range s.problems {
			problems = append(problems, p.err)
		}
	}
	return uniqueProblems(problems)
}

// byTime orders the refs oldest first, ties by ID, as SortByTime does.
// Each segment is in that order already, and month shards do not overlap,
// so the sort mostly meets runs it need not move.
func (rs *rowSet) byTime() []ref {
	slices.SortFunc(rs.refs, func(a, b ref) int {
		if a.at != b.at {
			return cmp.Compare(a.at, b.at)
		}
		return compareIDs(a, b)
	})
	return rs.refs
}

// compareIDs orders two records of the same time by ID, as SortByTime does;
// it decodes them, which only ties need.
func compareIDs(a, b ref) int {
	ra, errA := a.seg.record(int(a.i))
	rb, errB := b.seg.record(int(b.i))
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

// current keeps the refs that are the latest version of something live:
// not superseded by another of the set, and no tombstone; of a ring of
// versions, the newest (see ringBreaks), noted in rs.rings.
func (rs *rowSet) current() []ref {
	var edges []versionEdge
	for _, r := range rs.refs {
		if r.supersedes != 0 {
			edges = append(edges, refEdge(r))
		}
	}
	rs.rings = ringBreaks(edges)
	replaced := replacedBy(edges, rs.rings)
	out := make([]ref, 0, len(rs.refs))
	for _, r := range rs.refs {
		if !replaced[r.id] && r.flags&flagTombstone == 0 {
			out = append(out, r)
		}
	}
	return out
}

// decode returns the records of refs, in order. A segment whose record does
// not decode is damaged: it is built again from git, and read from there.
func (rd *Reader) decode(refs []ref) ([]*changelog.Record, error) {
	// Each record is read from its shard's segment.
	type at struct {
		seg *segment
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
		rec, err := w.seg.record(w.i)
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
func (rd *Reader) decodeRebuilt(damaged *segment, id uint64) (*changelog.Record, error) {
	seg, err := rd.rebuild(damaged.shard)
	if err != nil {
		return nil, err
	}
	for i := range seg.len() {
		if seg.row(i).id == id {
			return seg.record(i)
		}
	}
	return nil, errDamaged
}

// firstBy returns the first k of refs in order, sorting only those: a heap
// of k holds the best seen, its worst on top. A k of 0 or less keeps all.
func firstBy(refs []ref, k int, order func(a, b ref) int) []ref {
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
	refs  []ref
	order func(a, b ref) int
}

func (h *refHeap) Len() int           { return len(h.refs) }
func (h *refHeap) Less(i, j int) bool { return h.order(h.refs[i], h.refs[j]) > 0 }
func (h *refHeap) Swap(i, j int)      { h.refs[i], h.refs[j] = h.refs[j], h.refs[i] }
func (h *refHeap) Push(x any)         { h.refs = append(h.refs, x.(ref)) }
func (h *refHeap) Pop() any {
	r := h.refs[len(h.refs)-1]
	h.refs = h.refs[:len(h.refs)-1]
	return r
}
