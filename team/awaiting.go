package team

import (
	"context"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/project"
)

// Awaiting is what one agent has that global has not: promote's
// candidates, as a dry run finds them.
type Awaiting struct {
	Agent      string      `json:"agent"`
	Candidates []Candidate `json:"candidates"`
}

// AwaitingPromotion lists, per agent, what awaits promotion; agents with
// nothing new are left out. An agent whose tip global holds has nothing
// new: one git process tells them all, so only the others get a dry run.
func AwaitingPromotion(ctx context.Context, store *agent.Store) ([]Awaiting, error) {
	names, err := store.AgentNames()
	if err != nil {
		return nil, err
	}
	merged, err := store.Repo.MergedBranches(ctx, project.GlobalBranch, project.AgentBranchRefPattern)
	if err != nil {
		return nil, err
	}
	out := []Awaiting{}
	for _, name := range names {
		if _, ok := merged[project.AgentBranch(name)]; ok {
			continue
		}
		a, err := store.Agent(name)
		if err != nil {
			return nil, err
		}
		res, err := Promote(ctx, store, a, PromoteOptions{DryRun: true})
		if err != nil {
			return nil, err
		}
		if len(res.Candidates) > 0 {
			out = append(out, Awaiting{Agent: name, Candidates: res.Candidates})
		}
	}
	return out, nil
}
