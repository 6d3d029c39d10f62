package engine

import (
	"container/heap"
	"slices"

	"github.com/planq-dev/planq/changelog"
)

// The walks over every row of some segments that views count or pick by:
// each over the segments' ID orders (see idOrder), so that a record several
// branches hold counts once, with no set of every ID filled.

// CurrentByAgent counts the current records of segs per agent and kind (by
// index into changelog.Kinds): each record once, however many branches
// hold it; a new version that cites a duplicate, or one that supersedes an
// old one, is still one record.
func (rd *Store) CurrentByAgent(segs []*Segment) map[string][]int {
	orders := make([]idOrder, len(segs))
	var edges []versionEdge
	byPath := map[string][]int{} // a record lives in its kind's directory
	var paths []string
	for k, s := range segs {
		orders[k] = rd.idOrder(s)
		edges = append(edges, orders[k].edges(s)...)
		if byPath[s.path] == nil {
			paths = append(paths, s.path)
		}
		byPath[s.path] = append(byPath[s.path], k)
	}
	replaced := replacedBy(edges, ringBreaks(edges)) // of a ring of versions, the newest counts
	counts := map[string][]int{}
	of := make([][][]int, len(segs)) // each segment's agents' counts, by its agent index
	for k, s := range segs {
		of[k] = make([][]int, len(s.agents))
		for a, name := range s.agents {
			if counts[name] == nil {
				counts[name] = make([]int, len(changelog.Kinds))
			}
			of[k][a] = counts[name]
		}
	}
	for _, p := range paths {
		group := make([]idOrder, len(byPath[p]))
		for j, k := range byPath[p] {
			group[j] = orders[k]
		}
		eachDistinct(group, func(j int, id uint64, r idRow) {
			k := byPath[p][j]
			if r.flags&flagTombstone != 0 || (len(replaced) > 0 && replaced[id]) {
				return
			}
			if int(r.agent) < len(of[k]) && int(r.kind) < len(changelog.Kinds) {
				of[k][r.agent][r.kind]++
			}
		})
	}
	return counts
}

// Entries is what one walk over log directories finds of the current
// entries of the agents it is asked about.
type Entries struct {
	// Newest are the newest entries, newest first (NewestFirst).
	Newest []Ref
	// Counts are each agent's entries; an agent with none may be left out.
	Counts map[string]int
	// Latest are each agent's newest entry, when asked for.
	Latest map[string]Ref
}

// Entries walks the log directories segs in ID order, each entry once
// however many branches hold it, keeping the entries of the agents keep
// admits written at since (Unix nanoseconds, see SinceNanos) or later:
// their count per agent, each agent's latest (with latest), and the
// newest limit of them (0: all). The rows are read only for entries that
// may be among the newest. Only current entries count, as context show
// shows them: a retraction is no entry, and neither is what it retracted,
// nor a version a newer one replaced.
func (rd *Store) Entries(segs []*Segment, keep func(agent string) bool, since int64, limit int, latest bool) Entries {
	w := &entryWalk{segs: segs, counts: make([][]*int, len(segs)), since: since, limit: limit, latest: latest,
		newest: &refHeap{order: NewestFirst}, last: map[*int]Ref{}, logKind: kindIndex(changelog.KindLog)}
	orders := make([]idOrder, len(segs))
	byAgent := map[string]*int{}
	var edges []versionEdge
	for k, s := range segs {
		orders[k] = rd.idOrder(s)
		edges = append(edges, orders[k].edges(s)...)
		w.counts[k] = make([]*int, len(s.agents))
		for a, name := range s.agents {
			if keep(name) {
				if byAgent[name] == nil {
					byAgent[name] = new(int)
				}
				w.counts[k][a] = byAgent[name]
			}
		}
	}
	w.replaced = replacedBy(edges, ringBreaks(edges))
	eachDistinct(orders, w.visit)
	slices.SortFunc(w.newest.refs, NewestFirst)
	out := Entries{Newest: w.newest.refs, Counts: map[string]int{}}
	for name, n := range byAgent {
		out.Counts[name] = *n
	}
	if latest {
		out.Latest = make(map[string]Ref, len(w.last))
		for _, r := range w.last {
			out.Latest[r.agent()] = r
		}
	}
	return out
}

// entryWalk is what Entries keeps as it walks: each segment's agents'
// counts (nil for an agent not asked about), the versions replaced, the
// newest entries (the worst of them on top), and each agent's latest, by
// its count.
type entryWalk struct {
	segs     []*Segment
	counts   [][]*int
	replaced map[uint64]bool
	since    int64
	limit    int
	latest   bool
	newest   *refHeap
	last     map[*int]Ref
	logKind  uint8
}

// visit counts row r of segment k, record id, if it is a current entry
// of an agent asked about, written since then.
func (w *entryWalk) visit(k int, id uint64, r idRow) {
	if r.kind != w.logKind || int(r.agent) >= len(w.counts[k]) || w.counts[k][r.agent] == nil || r.at < w.since ||
		r.flags&flagTombstone != 0 || w.replaced[id] {
		return
	}
	count := w.counts[k][r.agent]
	*count++
	if w.latest {
		w.noteLatest(count, k, r)
	}
	w.keepNewest(k, r)
}

// noteLatest keeps r as its agent's latest entry when it is newer. Each
// agent's latest entry is its newest overall, which is since then when it
// has any entry since then.
func (w *entryWalk) noteLatest(count *int, k int, r idRow) {
	cur, ok := w.last[count]
	if ok && r.at < cur.at {
		return
	}
	if e := RefAt(w.segs[k], int(r.i)); !ok || NewestFirst(e, cur) < 0 {
		w.last[count] = e
	}
}

// keepNewest keeps r among the newest limit entries (all, for 0).
func (w *entryWalk) keepNewest(k int, r idRow) {
	full := w.limit > 0 && w.newest.Len() == w.limit
	if full && r.at < w.newest.refs[0].at {
		return // older than every entry kept
	}
	switch e := RefAt(w.segs[k], int(r.i)); {
	case !full:
		heap.Push(w.newest, e)
	case NewestFirst(e, w.newest.refs[0]) < 0:
		w.newest.refs[0] = e
		heap.Fix(w.newest, 0)
	}
}

// LatestByAgent is each agent's newest entry in the log directories segs,
// from each directory's newest rows (see NewestByAgent).
func (rd *Store) LatestByAgent(segs []*Segment) map[string]Ref {
	latest := map[string]Ref{}
	for _, s := range segs {
		for _, r := range rd.newestByAgent(s) {
			if cur, ok := latest[r.agent()]; !ok || NewestFirst(r, cur) < 0 {
				latest[r.agent()] = r
			}
		}
	}
	return latest
}
