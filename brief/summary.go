package brief

import (
	"errors"
	"slices"
	"sort"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/branchctx"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/staterepo"
)

// How much of each section a summary keeps.
const (
	RecentLogEntries = 5
	MaxDecisions     = 10
	MaxLearnings     = 10
	MaxTeam          = 10
)

// Summary is what an agent needs to pick up its work.
type Summary struct {
	Project   string              `json:"project"`
	Agent     string              `json:"agent"`
	Branch    string              `json:"branch"`
	AgentDir  string              `json:"agent_dir,omitempty"`
	Code      branchctx.Code      `json:"code"`
	Focus     string              `json:"focus"`
	Scratch   string              `json:"scratch"`
	RecentLog []*changelog.Record `json:"recent_log"`
	Decisions []*changelog.Record `json:"decisions"`
	Learnings []*changelog.Record `json:"learnings"`
	Handoff   *changelog.Record   `json:"handoff,omitempty"`
	// BranchContext is the context of the checked-out code branch.
	BranchContext *branchctx.Context `json:"branch_context,omitempty"`
	// Team holds what global keeps: promoted learnings and decisions, newest
	// first, foundational learnings before the rest.
	TeamLearnings []*changelog.Record `json:"team_learnings"`
	TeamDecisions []*changelog.Record `json:"team_decisions"`
	// Team is every current learning and decision in global, for readers
	// that rank them their own way (prime).
	Team []*changelog.Record `json:"-"`
	// Problems lists malformed records that were left out.
	Problems []string `json:"problems,omitempty"`
}

// Build assembles the summary for agent a.
func Build(a *agent.Agent) (*Summary, error) {
	store := a.Store()
	s := &Summary{Project: store.Project.Config.Project, Agent: a.Name, Branch: a.Branch, AgentDir: a.Dir,
		RecentLog: []*changelog.Record{}, Decisions: []*changelog.Record{}, Learnings: []*changelog.Record{},
		TeamLearnings: []*changelog.Record{}, TeamDecisions: []*changelog.Record{}}
	var err error
	if s.Focus, err = a.Focus(); err != nil {
		return nil, err
	}
	if s.Scratch, err = a.Scratch(); err != nil {
		return nil, err
	}
	if a.Workspace != "" {
		if s.Code, err = branchctx.Current(a.Workspace); err != nil {
			return nil, err
		}
		if s.Code.Branch != "" {
			if s.BranchContext, _, err = a.BranchContext(s.Code.Branch); err != nil {
				s.Problems = append(s.Problems, err.Error())
			}
		}
	}
	// Each load reads only the kinds it needs: handoffs from every branch,
	// everything from the agent's own, learnings and decisions from global.
	handoffs, err := store.AllRecords(changelog.KindHandoff.Dir())
	if s.Problems, err = problems(err); err != nil {
		return nil, err
	}
	own, err := store.BranchRecords(a.Branch)
	more, err := problems(err)
	if err != nil {
		return nil, err
	}
	s.Problems = append(s.Problems, more...)
	globalTip, err := store.Repo.Tip(staterepo.GlobalBranch)
	if err != nil {
		return nil, err
	}
	team, err := store.CommitRecords(globalTip, changelog.KindLearning.Dir(), changelog.KindDecision.Dir())
	if _, err = problems(err); err != nil {
		return nil, err
	}
	inGlobal := map[string]bool{}
	for _, r := range team {
		inGlobal[r.ID] = true
		for _, src := range r.Sources {
			inGlobal[src.ID] = true
		}
	}
	own = changelog.Current(own)
	for i := len(own) - 1; i >= 0; i-- {
		r := own[i]
		switch {
		case inGlobal[r.ID]:
			// shown with the team's
		case r.Kind == changelog.KindLog && r.Agent == a.Name && len(s.RecentLog) < RecentLogEntries:
			s.RecentLog = append(s.RecentLog, r)
		case r.Kind == changelog.KindDecision && len(s.Decisions) < MaxDecisions:
			s.Decisions = append(s.Decisions, r)
		case r.Kind == changelog.KindLearning && r.Agent == a.Name && len(s.Learnings) < MaxLearnings:
			s.Learnings = append(s.Learnings, r)
		}
	}
	team = changelog.Current(team)
	s.Team = team
	team = slices.Clone(team)
	sortTeam(team)
	for _, r := range team {
		switch {
		case r.Kind == changelog.KindLearning && len(s.TeamLearnings) < MaxTeam:
			s.TeamLearnings = append(s.TeamLearnings, r)
		case r.Kind == changelog.KindDecision && len(s.TeamDecisions) < MaxTeam:
			s.TeamDecisions = append(s.TeamDecisions, r)
		}
	}
	s.Handoff = agent.PendingHandoff(changelog.Current(handoffs), a.Name)
	return s, nil
}

// problems turns malformed-record errors into report lines and passes any
// other error through: one bad file must not hide an agent's memory.
func problems(err error) ([]string, error) {
	var le *changelog.LoadError
	if err == nil || !errors.As(err, &le) {
		return nil, err
	}
	out := make([]string, len(le.Problems))
	for i, p := range le.Problems {
		out[i] = p.Error()
	}
	return out, nil
}

// sortTeam orders global's records for reading: foundational first, then
// newest first.
func sortTeam(recs []*changelog.Record) {
	rank := func(r *changelog.Record) int {
		if r.Classification == "foundational" {
			return 0
		}
		return 1
	}
	sort.SliceStable(recs, func(i, j int) bool {
		if rank(recs[i]) != rank(recs[j]) {
			return rank(recs[i]) < rank(recs[j])
		}
		return recs[i].Timestamp.After(recs[j].Timestamp)
	})
}
