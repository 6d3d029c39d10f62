package prime

import (
	"github.com/planq-dev/planq/branchctx"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/readmodel"
)

// Summary is what an agent needs to pick up its work: `planq context show`
// and the MCP server's planq_context. Its records come from the read
// model's agent view; the rest is the agent's own notes and code checkout.
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
	// TeamLearnings and TeamDecisions are what global keeps, ranked.
	TeamLearnings []*changelog.Record `json:"team_learnings"`
	TeamDecisions []*changelog.Record `json:"team_decisions"`
	// Team is the first of global's current learnings, ranked, of
	// TeamTotal, for readers that show more of them (prime, which asks for
	// them); Disputed, every disputed learning or decision in global.
	Team      []*changelog.Record `json:"-"`
	TeamTotal int                 `json:"-"`
	Disputed  []*changelog.Record `json:"-"`
	// Problems lists malformed records that were left out.
	Problems []string `json:"problems,omitempty"`
}

// BuildSummary assembles the summary for a, an agent or global, read
// through h. Team is left empty: of global's learnings, the summary shows
// the first few (TeamLearnings).
func BuildSummary(h *readmodel.Handle, a readmodel.Ref) (*Summary, error) {
	return buildSummary(h, a, 0)
}

// buildSummary assembles the summary with the first team learnings of
// global, ranked, in Team.
func buildSummary(store *readmodel.Handle, a readmodel.Ref, team int) (*Summary, error) {
	s := &Summary{Project: store.Project.Config.Project, Agent: a.Name, Branch: a.Branch, AgentDir: a.Dir}
	var err error
	if s.Focus, err = store.Focus(a); err != nil {
		return nil, err
	}
	if s.Scratch, err = store.Scratch(a); err != nil {
		return nil, err
	}
	if a.Workspace != "" {
		if s.Code, err = branchctx.Current(a.Workspace); err != nil {
			return nil, err
		}
		if s.Code.Branch != "" {
			if s.BranchContext, _, err = store.BranchContext(a, s.Code.Branch); err != nil {
				s.Problems = append(s.Problems, err.Error())
			}
		}
	}
	v, err := store.Records.Agent(a.Name, a.Branch, team)
	if err != nil {
		return nil, err
	}
	s.RecentLog, s.Decisions, s.Learnings, s.Handoff = v.RecentLog, v.Decisions, v.Learnings, v.Handoff
	s.TeamLearnings, s.TeamDecisions = v.TeamLearnings, v.TeamDecisions
	s.Team, s.TeamTotal, s.Disputed = v.Team, v.TeamTotal, v.Disputed
	s.Problems = append(s.Problems, v.Problems...)
	return s, nil
}
