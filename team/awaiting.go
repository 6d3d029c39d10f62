package team

import (
	"context"

	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/staterepo"
)

// Awaiting is what one agent has that global has not: promote's
// candidates, as a dry run finds them.
type Awaiting struct {
	Agent      string      `json:"agent"`
	Candidates []Candidate `json:"candidates"`
}

// AwaitingPromotion lists, per agent, what awaits promotion; agents with
// nothing new are left out. It reads through h and needs no writer. An
// agent whose tip global holds has nothing new: one git process tells them
// all, so only the others are looked at.
func AwaitingPromotion(ctx context.Context, h *readmodel.Handle) ([]Awaiting, error) {
	names, err := h.AgentNames()
	if err != nil {
		return nil, err
	}
	merged, err := h.Git().MergedBranches(ctx, project.GlobalBranch, project.AgentBranchRefPattern)
	if err != nil {
		return nil, err
	}
	globalTip, err := h.Git().Tip(project.GlobalBranch)
	if err != nil {
		return nil, err
	}
	out := []Awaiting{}
	for _, name := range names {
		if _, ok := merged[project.AgentBranch(name)]; ok {
			continue
		}
		a, err := h.Agent(name)
		if err != nil {
			return nil, err
		}
		cs, err := awaitingOf(ctx, h, a, globalTip)
		if err != nil {
			return nil, err
		}
		if len(cs) > 0 {
			out = append(out, Awaiting{Agent: name, Candidates: cs})
		}
	}
	return out, nil
}

// awaitingOf is what agent a would bring to global, at globalTip: promote's
// candidates, found as promote finds them, without checking the versions
// it would make (that is the writer's, when it writes).
func awaitingOf(ctx context.Context, h *readmodel.Handle, a readmodel.Ref, globalTip staterepo.Hash) ([]Candidate, error) {
	agentTip, err := h.Git().Tip(a.Branch)
	if err != nil {
		return nil, err
	}
	p, err := findCandidates(ctx, h, a, globalTip, agentTip, nil)
	if err != nil {
		return nil, err
	}
	return p.candidates, nil
}
