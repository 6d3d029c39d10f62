package readmodel

import (
	"maps"
	"slices"
	"sort"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel/internal/engine"
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

// Log assembles the changelog of one agent, or of all of them, from the
// read model's tallies of each month (see engine.Store.LogEntries): it
// reads the newest entries and each agent's count and latest, and decodes
// only the entries it shows and each agent's latest.
func (rd *Reader) Log(opts LogOptions) (*LogView, error) { return rd.log(opts, rd.e.LogEntries) }

// entriesFinder finds the entries of a log: engine.Store.LogEntries or
// EntriesWalk.
type entriesFinder func(tips []staterepo.Hash, keep func(agent string) bool, since int64, limit int, latest bool) (engine.Entries, []*changelog.ParseError, error)

func (rd *Reader) log(opts LogOptions, find entriesFinder) (*LogView, error) {
	var tips []staterepo.Hash
	var err error
	if opts.All {
		tips, err = rd.e.Tips()
	} else {
		var tip staterepo.Hash
		tip, err = rd.e.Tip(project.AgentBranch(opts.Agent))
		tips = []staterepo.Hash{tip}
	}
	if err != nil {
		return nil, err
	}
	// Each entry once however many branches hold it: each agent's count
	// and latest entry, and the newest Limit entries, of which only those
	// are decoded.
	keep := func(agent string) bool { return opts.All || agent == opts.Agent }
	found, problems, err := find(tips, keep, engine.SinceNanos(opts.Since), opts.Limit, opts.All)
	if err != nil {
		return nil, err
	}
	view := &LogView{Entries: []*changelog.Record{}, Problems: problemLines(problems)}
	if view.Entries, err = rd.e.Decode(found.Newest); err != nil {
		return nil, err
	}
	if opts.All {
		recs, err := rd.e.Decode(slices.Collect(maps.Values(found.Latest)))
		if err != nil {
			return nil, err
		}
		for _, r := range recs {
			view.Agents = append(view.Agents, Activity{Agent: r.Agent, Entries: found.Counts[r.Agent], LastEntry: r.Timestamp, Title: r.Title()})
		}
		sortActivity(view.Agents)
	}
	return view, nil
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
// read (see engine.Store.LatestByAgent).
func (rd *Reader) Latest() ([]Activity, error) {
	tips, err := rd.e.Tips()
	if err != nil {
		return nil, err
	}
	segs, _, err := rd.e.Segments(tips, []changelog.Kind{changelog.KindLog})
	if err != nil {
		return nil, err
	}
	recs, err := rd.e.Decode(slices.Collect(maps.Values(rd.e.LatestByAgent(segs))))
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
