package readmodel

import (
	"sort"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
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

// Log assembles the changelog of one agent, or of all of them.
func (rd *Reader) Log(opts LogOptions) (*LogView, error) {
	var set Set
	var err error
	if opts.All {
		set, err = rd.All(changelog.KindLog)
	} else {
		set, err = rd.Branch(project.AgentBranch(opts.Agent), changelog.KindLog)
	}
	if err != nil {
		return nil, err
	}
	recs := set.Records
	view := &LogView{Entries: []*changelog.Record{}, Problems: set.ProblemLines()}
	activity := map[string]*Activity{}
	for i := len(recs) - 1; i >= 0; i-- {
		r := recs[i]
		if r.Kind != changelog.KindLog || (!opts.All && r.Agent != opts.Agent) || r.Timestamp.Before(opts.Since) {
			continue
		}
		if opts.Limit == 0 || len(view.Entries) < opts.Limit {
			view.Entries = append(view.Entries, r)
		}
		act := activity[r.Agent]
		if act == nil {
			act = &Activity{Agent: r.Agent, LastEntry: r.Timestamp, Title: r.Title()}
			activity[r.Agent] = act
		}
		act.Entries++
	}
	if opts.All {
		for _, a := range activity {
			view.Agents = append(view.Agents, *a)
		}
		sort.Slice(view.Agents, func(i, j int) bool { return view.Agents[i].LastEntry.After(view.Agents[j].LastEntry) })
	}
	return view, nil
}
