package readmodel

import (
	"cmp"
	"container/heap"
	"maps"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// LogOptions select changelog entries.
type LogOptions struct {
	// Agent shows one agent's entries; ignored with All.
	Agent string
	// All aggregates every agent's entries.
	All bool
	// Since drops entries older than this.
	Since time.Time
	// Limit keeps the newest Limit entries; 0 keeps all.
	Limit int
}

// Activity is one row of the active-agents table.
type Activity struct {
	Agent     string    `json:"agent"`
	Entries   int       `json:"entries"`
	LastEntry time.Time `json:"last_entry"`
	Title     string    `json:"title"`
}

// LogView is a changelog, newest entry first.
type LogView struct {
	Entries  []*changelog.Record `json:"entries"`
	Agents   []Activity          `json:"agents,omitempty"`
	Problems []string            `json:"problems,omitempty"`
}

// Log assembles the changelog of one agent, or of all of them. It decodes
// only the entries it shows and each agent's latest.
func (rd *Reader) Log(opts LogOptions) (*LogView, error) {
	var tips []staterepo.Hash
	var err error
	if opts.All {
		tips, err = rd.tips()
	} else {
		var tip staterepo.Hash
		tip, err = rd.tip(project.AgentBranch(opts.Agent))
		tips = []staterepo.Hash{tip}
	}
	if err != nil {
		return nil, err
	}
	segs, problems, err := rd.segmentsOf(tips, []changelog.Kind{changelog.KindLog})
	if err != nil {
		return nil, err
	}
	view := &LogView{Entries: []*changelog.Record{}, Problems: problemLines(withSegmentProblems(problems, segs))}
	since := sinceNanos(opts.Since)
	// One walk over the entries in ID order, each once however many
	// branches hold it: each agent's count and latest entry, and the
	// newest Limit entries, of which only those are decoded. The rows are
	// read only for entries that may be among the newest. Only current
	// entries count, as context show shows them: a retraction is no entry,
	// and neither is what it retracted, nor a version a newer one replaced.
	orders := make([]idOrder, len(segs))
	entries := make([][]*int, len(segs)) // each segment's agents' counts
	activity := map[string]*Activity{}
	var edges []versionEdge
	for k, s := range segs {
		orders[k] = rd.idOrder(s)
		edges = append(edges, orders[k].edges(s)...)
		entries[k] = make([]*int, len(s.agents))
		for a, name := range s.agents {
			if opts.All || name == opts.Agent {
				if activity[name] == nil {
					activity[name] = &Activity{Agent: name}
				}
				entries[k][a] = &activity[name].Entries
			}
		}
	}
	replaced := replacedBy(edges, ringBreaks(edges))
	newest := &refHeap{order: newestFirst} // the worst of the newest on top
	// Each agent's latest entry is its newest overall, which is since
	// opts.Since when it has any entry since then.
	latest := map[*int]ref{}
	logKind := kindIndex(changelog.KindLog)
	eachDistinct(orders, func(k int, id uint64, r idRow) {
		if r.kind != logKind || int(r.agent) >= len(entries[k]) || entries[k][r.agent] == nil || r.at < since ||
			r.flags&flagTombstone != 0 || replaced[id] {
			return
		}
		count := entries[k][r.agent]
		*count++
		if cur, ok := latest[count]; opts.All && (!ok || r.at >= cur.at) {
			if e := refAt(segs[k], int(r.i)); !ok || newestFirst(e, cur) < 0 {
				latest[count] = e
			}
		}
		full := opts.Limit > 0 && newest.Len() == opts.Limit
		if full && r.at < newest.refs[0].at {
			return // older than every entry kept
		}
		switch e := refAt(segs[k], int(r.i)); {
		case !full:
			heap.Push(newest, e)
		case newestFirst(e, newest.refs[0]) < 0:
			newest.refs[0] = e
			heap.Fix(newest, 0)
		}
	})
	slices.SortFunc(newest.refs, newestFirst)
	if view.Entries, err = rd.decode(newest.refs); err != nil {
		return nil, err
	}
	if opts.All {
		recs, err := rd.decode(slices.Collect(maps.Values(latest)))
		if err != nil {
			return nil, err
		}
		for _, r := range recs {
			act := activity[r.Agent]
			act.LastEntry, act.Title = r.Timestamp, r.Title()
			view.Agents = append(view.Agents, *act)
		}
		sortActivity(view.Agents)
	}
	return view, nil
}

// latestByAgent is each agent's newest entry in the log directories segs,
// from each directory's newest rows (see newestByAgent).
func (rd *Reader) latestByAgent(segs []*segment) map[string]ref {
	latest := map[string]ref{}
	for _, s := range segs {
		for _, r := range rd.newestByAgent(s) {
			if cur, ok := latest[r.agent()]; !ok || newestFirst(r, cur) < 0 {
				latest[r.agent()] = r
			}
		}
	}
	return latest
}

// sinceNanos is the Unix nanosecond a row's time must reach to be no
// earlier than since, clamped to the times a row can hold (UnixNano's
// result is undefined outside them).
func sinceNanos(since time.Time) int64 {
	switch {
	case since.IsZero() || since.Before(time.Unix(0, math.MinInt64)):
		return math.MinInt64
	case since.After(time.Unix(0, math.MaxInt64)):
		return math.MaxInt64
	}
	return since.UnixNano()
}

// newestFirst orders entries newest first: by time, ties by ID, the
// reverse of SortByTime.
func newestFirst(a, b ref) int {
	if a.at != b.at {
		return cmp.Compare(b.at, a.at)
	}
	return compareIDs(b, a)
}

// sortActivity orders agents by their latest entry, newest first, ties by
// name.
func sortActivity(acts []Activity) {
	sort.SliceStable(acts, func(i, j int) bool {
		if !acts[i].LastEntry.Equal(acts[j].LastEntry) {
			return acts[i].LastEntry.After(acts[j].LastEntry)
		}
		return acts[i].Agent < acts[j].Agent
	})
}

// Latest is each agent's latest log entry, newest agent first, without the
// count of entries (Entries is 0): it decodes one entry per agent, and
// reads the rows only of the log directories that changed since the last
// read (see newestByAgent).
func (rd *Reader) Latest() ([]Activity, error) {
	tips, err := rd.tips()
	if err != nil {
		return nil, err
	}
	segs, _, err := rd.segmentsOf(tips, []changelog.Kind{changelog.KindLog})
	if err != nil {
		return nil, err
	}
	recs, err := rd.decode(slices.Collect(maps.Values(rd.latestByAgent(segs))))
	if err != nil {
		return nil, err
	}
	out := make([]Activity, 0, len(recs))
	for _, r := range recs {
		out = append(out, Activity{Agent: r.Agent, LastEntry: r.Timestamp, Title: r.Title()})
	}
	sortActivity(out)
	return out, nil
}
