package readmodel

import (
	"slices"
	"sort"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
)

// Priority says how much a learning or decision matters to a reader, lower
// first: foundational learnings, then failures with their resolutions, then
// conventions and patterns, then the rest, observational learnings last.
// Decisions have no classification or type, so they rank by time alone.
func Priority(r *changelog.Record) int {
	switch {
	case r.Classification == changelog.Foundational:
		return 2
	case r.Type == changelog.TypeFailure:
		return 3
	case r.Type == changelog.TypeConvention || r.Type == changelog.TypePattern:
		return 4
	case r.Classification == changelog.Observational:
		return 8
	}
	return 7
}

// Rank orders records for reading: by Priority, newest first within one.
func Rank(recs []*changelog.Record) {
	sort.SliceStable(recs, func(i, j int) bool {
		pi, pj := Priority(recs[i]), Priority(recs[j])
		if pi != pj {
			return pi < pj
		}
		return recs[i].Timestamp.After(recs[j].Timestamp)
	})
}

// OfKind keeps the records of kind k, in order.
func OfKind(recs []*changelog.Record, k changelog.Kind) []*changelog.Record {
	var out []*changelog.Record
	for _, r := range recs {
		if r.Kind == k {
			out = append(out, r)
		}
	}
	return out
}

// PendingHandoff is the latest pending handoff for agent among recs (oldest
// first, current versions only): one it left for its own next session, or
// one another agent addressed to it.
func PendingHandoff(recs []*changelog.Record, agent string) *changelog.Record {
	for i := len(recs) - 1; i >= 0; i-- {
		r := recs[i]
		if r.Kind != changelog.KindHandoff || r.Status == changelog.StatusAcknowledged {
			continue
		}
		if r.To == agent || (r.To == "" && r.Agent == agent) {
			return r
		}
	}
	return nil
}

// Handoffs loads the current version of every handoff on every branch.
func (rd *Reader) Handoffs() (Set, error) {
	set, err := rd.All(changelog.KindHandoff)
	set.Records = changelog.Current(set.Records)
	return set, err
}

// Team is what global keeps of the promoted kinds: the current version of
// each record, ranked for reading.
func (rd *Reader) Team() (Set, error) {
	set, err := rd.Branch(project.GlobalBranch, changelog.KindsWhere(func(s *changelog.Spec) bool { return s.Promoted })...)
	if err != nil {
		return Set{}, err
	}
	set.Records = changelog.Current(set.Records)
	Rank(set.Records)
	return set, nil
}

// How much of each section an agent view keeps.
const (
	RecentLogEntries = 5
	MaxDecisions     = 10
	MaxLearnings     = 10
	MaxTeam          = 10
)

// AgentView is what one agent should read of the records: its own recent
// work and what it recorded that global does not hold yet, what the team
// keeps, and the handoff waiting for it.
type AgentView struct {
	RecentLog []*changelog.Record `json:"recent_log"`
	Decisions []*changelog.Record `json:"decisions"`
	Learnings []*changelog.Record `json:"learnings"`
	Handoff   *changelog.Record   `json:"handoff,omitempty"`
	// TeamLearnings and TeamDecisions are the first of global's, ranked.
	TeamLearnings []*changelog.Record `json:"team_learnings"`
	TeamDecisions []*changelog.Record `json:"team_decisions"`
	// Team is every current learning and decision in global, ranked.
	Team     []*changelog.Record `json:"-"`
	Problems []string            `json:"problems,omitempty"`
}

// Agent builds the view of agent name, whose branch is branch (global, for a
// reader without an agent of its own).
func (rd *Reader) Agent(name, branch string) (*AgentView, error) {
	v := &AgentView{RecentLog: []*changelog.Record{}, Decisions: []*changelog.Record{}, Learnings: []*changelog.Record{},
		TeamLearnings: []*changelog.Record{}, TeamDecisions: []*changelog.Record{}}
	// Each load reads only the kinds it needs: handoffs from every branch,
	// what prime shows from the agent's own, the promoted kinds from global.
	handoffs, err := rd.Handoffs()
	if err != nil {
		return nil, err
	}
	own, err := rd.Branch(branch, changelog.KindsWhere(func(s *changelog.Spec) bool { return s.Primed })...)
	if err != nil {
		return nil, err
	}
	team, err := rd.Team()
	if err != nil {
		return nil, err
	}
	v.Problems = slices.Concat(handoffs.ProblemLines(), own.ProblemLines())
	inGlobal := map[string]bool{}
	for _, r := range team.Records {
		inGlobal[r.ID] = true
		for _, src := range r.Sources {
			inGlobal[src.ID] = true
		}
	}
	mine := own.Current()
	for i := len(mine) - 1; i >= 0; i-- {
		r := mine[i]
		switch {
		case inGlobal[r.ID]:
			// shown with the team's
		case r.Kind == changelog.KindLog && r.Agent == name && len(v.RecentLog) < RecentLogEntries:
			v.RecentLog = append(v.RecentLog, r)
		case r.Kind == changelog.KindDecision && len(v.Decisions) < MaxDecisions:
			v.Decisions = append(v.Decisions, r)
		case r.Kind == changelog.KindLearning && r.Agent == name && len(v.Learnings) < MaxLearnings:
			v.Learnings = append(v.Learnings, r)
		}
	}
	v.Team = team.Records
	for _, r := range v.Team {
		switch {
		case r.Kind == changelog.KindLearning && len(v.TeamLearnings) < MaxTeam:
			v.TeamLearnings = append(v.TeamLearnings, r)
		case r.Kind == changelog.KindDecision && len(v.TeamDecisions) < MaxTeam:
			v.TeamDecisions = append(v.TeamDecisions, r)
		}
	}
	v.Handoff = PendingHandoff(handoffs.Records, name)
	return v, nil
}
