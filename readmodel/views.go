package readmodel

import (
	"cmp"
	"slices"
	"sort"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/readmodel/internal/engine"
	"github.com/planq-dev/planq/staterepo"
)

// Priority says how much a learning or decision matters to a reader, lower
// first: foundational learnings, then failures with their resolutions, then
// conventions and patterns, then the rest, observational learnings last.
// Decisions have no classification or type, so they rank by time alone.
func Priority(r *changelog.Record) int { return engine.Priority(r) }

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
	set.Records = engine.CurrentRecords(set.Records)
	return set, err
}

// promoted and primed are the kinds that promote moves to global, and
// those an agent's own view shows.
var (
	promoted = changelog.KindsWhere(func(s *changelog.Spec) bool { return s.Promoted })
	primed   = changelog.KindsWhere(func(s *changelog.Spec) bool { return s.Primed })
)

// rankOrder is Rank's order: by priority, newest first, ties by ID.
func rankOrder(a, b engine.Ref) int {
	if a.Priority() != b.Priority() {
		return int(a.Priority()) - int(b.Priority())
	}
	if a.At() != b.At() {
		return cmp.Compare(b.At(), a.At())
	}
	return engine.CompareIDs(a, b)
}

// How much of each section an agent view keeps.
const (
	RecentLogEntries = 5
	MaxDecisions     = 10
	MaxLearnings     = 10
	MaxTeam          = 10
	// MaxTeamLearnings bounds the learnings of global a view decodes for
	// readers that show more of them (prime), the first ranked.
	MaxTeamLearnings = 400
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
	// Team is the first MaxTeamLearnings current learnings in global,
	// ranked, of TeamTotal; Disputed, every disputed learning or decision.
	Team      []*changelog.Record `json:"-"`
	TeamTotal int                 `json:"-"`
	Disputed  []*changelog.Record `json:"-"`
	Problems  []string            `json:"problems,omitempty"`
}

// Agent builds the view of agent name, whose branch is branch (global, for a
// reader without an agent of its own), with the first teamCount learnings of
// global's in Team (at most MaxTeamLearnings; 0 for none).
func (rd *Reader) Agent(name, branch string, teamCount int) (*AgentView, error) {
	v := &AgentView{RecentLog: []*changelog.Record{}, Decisions: []*changelog.Record{}, Learnings: []*changelog.Record{},
		TeamLearnings: []*changelog.Record{}, TeamDecisions: []*changelog.Record{}}
	// Each load reads only the kinds it needs: handoffs from every branch,
	// what prime shows from the agent's own, the promoted kinds from global;
	// and of those, it decodes only the records the view shows.
	handoffs, err := rd.Handoffs()
	if err != nil {
		return nil, err
	}
	tip, err := rd.e.Tip(branch)
	if err != nil {
		return nil, err
	}
	own, err := rd.e.Rows([]staterepo.Hash{tip}, primed...)
	if err != nil {
		return nil, err
	}
	team, err := rd.team()
	if err != nil {
		return nil, err
	}
	v.Problems = slices.Concat(handoffs.ProblemLines(), problemLines(own.Problems()), problemLines(team.problems))
	own.ByTime()
	recent, decisions, learnings := ownShown(own.Current(), team, name)
	v.TeamTotal = team.total
	teamLearnings := team.learnings[:min(MaxTeam, len(team.learnings))]
	primedTeam := team.learnings[:min(max(teamCount, 0), len(team.learnings))]
	for _, section := range []struct {
		refs []engine.Ref
		recs *[]*changelog.Record
	}{{recent, &v.RecentLog}, {decisions, &v.Decisions}, {learnings, &v.Learnings},
		{teamLearnings, &v.TeamLearnings}, {team.decisions, &v.TeamDecisions}, {primedTeam, &v.Team}, {team.disputed, &v.Disputed}} {
		recs, err := rd.e.Decode(section.refs)
		if err != nil {
			return nil, err
		}
		engine.MarkRings(recs, own.Rings())
		engine.MarkRings(recs, team.inRings())
		*section.recs = recs
	}
	v.Handoff = PendingHandoff(handoffs.Records, name)
	return v, nil
}

// ownShown is what the view shows of the agent's own current records
// (mine, oldest first), newest first: its recent log, the decisions, and
// its learnings; a record the team holds is shown with the team's.
func ownShown(mine []engine.Ref, team *teamView, name string) (recent, decisions, learnings []engine.Ref) {
	for i := len(mine) - 1; i >= 0 && (len(recent) < RecentLogEntries || len(decisions) < MaxDecisions || len(learnings) < MaxLearnings); i-- {
		r := mine[i]
		switch kind := r.Kind(); {
		case team.holds(r.ID()):
		case kind == changelog.KindLog && r.Agent() == name && len(recent) < RecentLogEntries:
			recent = append(recent, r)
		case kind == changelog.KindDecision && len(decisions) < MaxDecisions:
			decisions = append(decisions, r)
		case kind == changelog.KindLearning && r.Agent() == name && len(learnings) < MaxLearnings:
			learnings = append(learnings, r)
		}
	}
	return recent, decisions, learnings
}

func problemLines(ps []*changelog.ParseError) []string { return Set{Problems: ps}.ProblemLines() }
