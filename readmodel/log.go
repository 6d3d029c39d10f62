package readmodel

import (
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
	var shown, latest []ref
	activity := map[string]*Activity{}
	refs := rs.byTime()
	for i := len(refs) - 1; i >= 0; i-- {
		r := refs[i]
		if r.kind() != changelog.KindLog || (!opts.All && r.agent() != opts.Agent) || time.Unix(0, r.at).Before(opts.Since) {
			continue
		}
		if opts.Limit == 0 || len(shown) < opts.Limit {
			shown = append(shown, r)
		}
		act := activity[r.agent()]
		if act == nil {
			act = &Activity{Agent: r.agent()}
			activity[r.agent()] = act
			latest = append(latest, r)
		}
		act.Entries++
	}
	if view.Entries, err = rd.decode(shown); err != nil {
		return nil, err
	}
	if opts.All {
		recs, err := rd.decode(latest)
		if err != nil {
			return nil, err
		}
		for _, r := range recs {
			act := activity[r.Agent]
			act.LastEntry, act.Title = r.Timestamp, r.Title()
			view.Agents = append(view.Agents, *act)
		}
		sort.SliceStable(view.Agents, func(i, j int) bool { return view.Agents[i].LastEntry.After(view.Agents[j].LastEntry) })
	}
	return view, nil
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
		if cur, ok := latest[r.agent()]; !ok || r.at > cur.at || (r.at == cur.at && compareIDs(r, cur) > 0) {
			latest[r.agent()] = r
		}
	}
	refs := make([]ref, 0, len(latest))
	for _, r := range latest {
		refs = append(refs, r)
	}
	recs, err := rd.decode(refs)
	if err != nil {
		return nil, err
	}
	out := make([]Activity, 0, len(recs))
	for _, r := range recs {
		out = append(out, Activity{Agent: r.Agent, LastEntry: r.Timestamp, Title: r.Title()})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].LastEntry.Equal(out[j].LastEntry) {
			return out[i].LastEntry.After(out[j].LastEntry)
		}
		return out[i].Agent < out[j].Agent
	})
	return out, nil
}
