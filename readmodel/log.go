package readmodel

import (
	"cmp"
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
	var tips []staterepo.Hash
	var err error
	if opts.All {
		tips, err = rd.tips()
	} else {
		var tip staterepo.Hash
		tip, err = rd.repo.Tip(project.AgentBranch(opts.Agent))
		tips = []staterepo.Hash{tip}
	}
	if err != nil {
		return nil, err
	}
	rs, err := rd.rows(tips, changelog.KindLog)
	if err != nil {
		return nil, err
	}
	view := &LogView{Entries: []*changelog.Record{}, Problems: problemLines(rs.problems)}
	// One pass, in no order: each agent's count and latest entry, and the
	// entries that match; of those only the ones shown are sorted.
	var matched []ref
	latest := map[string]ref{}
	activity := map[string]*Activity{}
	for _, r := range rs.refs {
		if r.kind() != changelog.KindLog || (!opts.All && r.agent() != opts.Agent) || time.Unix(0, r.at).Before(opts.Since) {
			continue
		}
		matched = append(matched, r)
		act := activity[r.agent()]
		if act == nil {
			act = &Activity{Agent: r.agent()}
			activity[r.agent()] = act
		}
		act.Entries++
		if cur, ok := latest[r.agent()]; !ok || newestFirst(r, cur) < 0 {
			latest[r.agent()] = r
		}
	}
	shown := firstBy(matched, opts.Limit, newestFirst)
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
	latest := map[string]ref{}
	for _, s := range segs {
		for _, r := range rd.newestByAgent(s) {
			if cur, ok := latest[r.agent()]; !ok || newestFirst(r, cur) < 0 {
				latest[r.agent()] = r
			}
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
