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
	// Counts are each agent's entries.
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
	orders := make([]idOrder, len(segs))
	counts := make([][]*int, len(segs)) // each segment's agents' counts
	out := Entries{Counts: map[string]int{}}
	byAgent := map[string]*int{}
	var edges []versionEdge
	for k, s := range segs {
		orders[k] = rd.idOrder(s)
		edges = append(edges, orders[k].edges(s)...)
		counts[k] = make([]*int, len(s.agents))
		for a, name := range s.agents {
			if keep(name) {
				if byAgent[name] == nil {
					byAgent[name] = new(int)
				}
				counts[k][a] = byAgent[name]
			}
		}
	}
	replaced := replacedBy(edges, ringBreaks(edges))
	newest := &refHeap{order: NewestFirst} // the worst of the newest on top
	// Each agent's latest entry is its newest overall, which is since
	// then when it has any entry since then.
	last := map[*int]Ref{}
	logKind := kindIndex(changelog.KindLog)
	eachDistinct(orders, func(k int, id uint64, r idRow) {
		if r.kind != logKind || int(r.agent) >= len(counts[k]) || counts[k][r.agent] == nil || r.at < since ||
			r.flags&flagTombstone != 0 || replaced[id] {
			return
		}
		count := counts[k][r.agent]
		*count++
		if cur, ok := last[count]; latest && (!ok || r.at >= cur.at) {
			if e := RefAt(segs[k], int(r.i)); !ok || NewestFirst(e, cur) < 0 {
				last[count] = e
			}
		}
		full := limit > 0 && newest.Len() == limit
		if full && r.at < newest.refs[0].at {
			return // older than every entry kept
		}
		switch e := RefAt(segs[k], int(r.i)); {
		case !full:
			heap.Push(newest, e)
		case NewestFirst(e, newest.refs[0]) < 0:
			newest.refs[0] = e
			heap.Fix(newest, 0)
		}
	})
	slices.SortFunc(newest.refs, NewestFirst)
	out.Newest = newest.refs
	for name, n := range byAgent {
		out.Counts[name] = *n
	}
	if latest {
		out.Latest = make(map[string]Ref, len(last))
		for _, r := range last {
			out.Latest[r.agent()] = r
		}
	}
	return out
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
