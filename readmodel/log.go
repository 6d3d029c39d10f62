package readmodel

import (
	"container/heap"
	"maps"
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
	var srcs []source
	var err error
	if opts.All {
		srcs, err = rd.sources()
	} else {
		var tip staterepo.Hash
		tip, err = rd.repo.Tip(project.AgentBranch(opts.Agent))
		srcs = []source{{tip: tip}}
	}
	if err != nil {
		return nil, err
	}
	rs, err := rd.rows(srcs, changelog.KindLog)
	if err != nil {
		return nil, err
	}
	view := &LogView{Entries: []*changelog.Record{}, Problems: problemLines(rs.problems)}
	// One pass, in no order: each agent's count and latest entry, and the
	// entries shown; only those are sorted (all of them, or the newest
	// Limit kept in a heap), never the whole history.
	var shown []ref
	newest := &refHeap{}
	latest := map[string]ref{}
	activity := map[string]*Activity{}
	for _, r := range rs.refs {
		if r.kind() != changelog.KindLog || (!opts.All && r.agent() != opts.Agent) || time.Unix(0, r.at).Before(opts.Since) {
			continue
		}
		if opts.Limit == 0 {
			shown = append(shown, r)
		} else if newest.Len() < opts.Limit {
			heap.Push(newest, r)
		} else if newer(r, newest.refs[0]) {
			newest.refs[0] = r
			heap.Fix(newest, 0)
		}
		act := activity[r.agent()]
		if act == nil {
			act = &Activity{Agent: r.agent()}
			activity[r.agent()] = act
		}
		act.Entries++
		if cur, ok := latest[r.agent()]; !ok || newer(r, cur) {
			latest[r.agent()] = r
		}
	}
	if opts.Limit > 0 {
		shown = newest.refs
	}
	slices.SortFunc(shown, func(a, b ref) int {
		if newer(a, b) {
			return -1
		}
		return 1
	})
	if view.Entries, err = rd.decode(shown); err != nil {
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

// newer orders entries newest first: by time, ties by ID, the reverse of
// SortByTime.
func newer(a, b ref) bool {
	if a.at != b.at {
		return a.at > b.at
	}
	return compareIDs(a, b) > 0
}

// refHeap holds the newest entries seen, the oldest of them on top.
type refHeap struct{ refs []ref }

func (h *refHeap) Len() int           { return len(h.refs) }
func (h *refHeap) Less(i, j int) bool { return newer(h.refs[j], h.refs[i]) }
func (h *refHeap) Swap(i, j int)      { h.refs[i], h.refs[j] = h.refs[j], h.refs[i] }
func (h *refHeap) Push(x any)         { h.refs = append(h.refs, x.(ref)) }
func (h *refHeap) Pop() any {
	r := h.refs[len(h.refs)-1]
	h.refs = h.refs[:len(h.refs)-1]
	return r
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
// count of entries (Entries is 0): it decodes one entry per agent.
func (rd *Reader) Latest() ([]Activity, error) {
	srcs, err := rd.sources()
	if err != nil {
		return nil, err
	}
	rs, err := rd.rows(srcs, changelog.KindLog)
	if err != nil {
		return nil, err
	}
	latest := map[string]ref{}
	for _, r := range rs.refs {
		if cur, ok := latest[r.agent()]; !ok || newer(r, cur) {
			latest[r.agent()] = r
		}
	}
	recs, err := rd.decode(slices.Collect(maps.Values(latest)))
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
