package brief

import (
	"errors"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/branchctx"
	"github.com/planq-dev/planq/changelog"
)

// How much of each section a summary keeps.
const (
	RecentLogEntries = 5
	MaxDecisions     = 10
	MaxLearnings     = 10
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
	// Problems lists malformed records that were left out.
	Problems []string `json:"problems,omitempty"`
}

// Build assembles the summary for agent a.
func Build(a *agent.Agent) (*Summary, error) {
	store := a.Store()
	s := &Summary{Project: store.Project.Config.Project, Agent: a.Name, Branch: a.Branch, AgentDir: a.Dir,
		RecentLog: []*changelog.Record{}, Decisions: []*changelog.Record{}, Learnings: []*changelog.Record{}}
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
	}
	all, err := store.AllRecords()
	if s.Problems, err = problems(err); err != nil {
		return nil, err
	}
	own, err := store.BranchRecords(a.Branch)
	if _, err = problems(err); err != nil {
		return nil, err
	}
	own = changelog.Current(own)
	for i := len(own) - 1; i >= 0; i-- {
		r := own[i]
		switch {
		case r.Kind == changelog.KindLog && r.Agent == a.Name && len(s.RecentLog) < RecentLogEntries:
			s.RecentLog = append(s.RecentLog, r)
		case r.Kind == changelog.KindDecision && len(s.Decisions) < MaxDecisions:
			s.Decisions = append(s.Decisions, r)
		case r.Kind == changelog.KindLearning && r.Agent == a.Name && len(s.Learnings) < MaxLearnings:
			s.Learnings = append(s.Learnings, r)
		}
	}
	s.Handoff = PendingHandoff(changelog.Current(all), a.Name)
	return s, nil
}

// PendingHandoff is the latest pending handoff for agent: one it left for
// its own next session, or one another agent addressed to it.
func PendingHandoff(recs []*changelog.Record, agent string) *changelog.Record {
	for i := len(recs) - 1; i >= 0; i-- {
		r := recs[i]
		if r.Kind != changelog.KindHandoff || r.Status == "acknowledged" {
			continue
		}
		if r.To == agent || (r.To == "" && r.Agent == agent) {
			return r
		}
	}
	return nil
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
