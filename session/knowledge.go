package session

import (
	"context"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/internal/knowledge"
	"github.com/planq-dev/planq/staterepo"
	"github.com/planq-dev/planq/team"
)

// PromoteInput says what to promote into global.
type PromoteInput struct {
	// Agent is whose records: the one named, else the one mounted here.
	Agent string
	// IDs promotes only these records; none means every candidate.
	IDs []string
	// DryRun reports what would land and changes nothing: the list a lead
	// picks from is one.
	DryRun bool
}

// Promoted is what Promote did: the promote, and the knowledge base update
// that followed it.
type Promoted struct {
	team.PromoteResult
	// Knowledge is what the knowledge base update after the promote did,
	// its failure included; nil when none ran (a dry run, nothing landed).
	Knowledge *knowledge.Summary `json:"knowledge,omitempty"`
}

// Promote promotes the agent's records into global (team.Promote); the
// knowledge base follows the records that landed in a commit of its own
// (see attach). The promote has landed by then: a failed update is
// reported in Knowledge, never returned, and 'planq kb update' does it
// again.
func (s *Project) Promote(ctx context.Context, in PromoteInput) (Promoted, error) {
	a, err := s.agent(ctx, in.Agent)
	if err != nil {
		return Promoted{}, err
	}
	s.takeStep()
	res, err := team.Promote(ctx, s.store, a, team.PromoteOptions{IDs: in.IDs, DryRun: in.DryRun})
	return Promoted{PromoteResult: res, Knowledge: s.takeStep()}, err
}

// PullInput says what a pull takes.
type PullInput struct {
	// Remote names the remote to pull from (DefaultRemote: the team's).
	Remote string
	// Agents also fetches teammates' agent branches, read only.
	Agents bool
	// AllowUnrelated merges a global of another project, or that shares
	// no history with this one.
	AllowUnrelated bool
}

// Pulled is what Pull did: the pull, and the knowledge base update that
// followed it.
type Pulled struct {
	team.PullResult
	// Knowledge is what the knowledge base update after the pull did, its
	// failure included; nil when none ran (global did not move).
	Knowledge *knowledge.Summary `json:"knowledge,omitempty"`
}

// Pull pulls the team's global (team.Pull), regenerating
// knowledge/_index.md in a merge as changelog.md is (never merged); when
// global moved, the knowledge base follows what came in a commit of its
// own (see attach). A failed update is reported in Knowledge, never
// returned: the pull has landed.
func (s *Project) Pull(ctx context.Context, in PullInput) (Pulled, error) {
	store, err := s.openStore(ctx)
	if err != nil {
		return Pulled{}, err
	}
	s.takeStep()
	res, err := team.Pull(ctx, store, in.Remote,
		team.PullOptions{Agents: in.Agents, AllowUnrelated: in.AllowUnrelated, Regenerate: regenerate(store)})
	return Pulled{PullResult: res, Knowledge: s.takeStep()}, err
}

// PushInput says what a push publishes.
type PushInput struct {
	// Remote names the remote to push to (DefaultRemote: the team's).
	Remote string
	// Agents also publishes this machine's agent branches.
	Agents bool
	// AllowSecret publishes records that look like credentials.
	AllowSecret bool
	// AllowUnrelated merges first a remote global of another project or
	// history.
	AllowUnrelated bool
}

// Pushed is what Push did: the push, and the knowledge base updates that
// came with it.
type Pushed struct {
	team.PushResult
	// Knowledge is what the last knowledge base update of the push did,
	// its failure included.
	Knowledge *knowledge.Summary `json:"knowledge,omitempty"`
}

// Push publishes global (team.Push) with the knowledge base in step:
// updated before (what an update that failed, or a global written by an
// older planq, left behind), and after each merge the push makes when a
// teammate pushed first (see attach), so that what it publishes is what
// every pull of it would make, and the pulls change nothing. A failed
// update is reported in Knowledge, never returned.
func (s *Project) Push(ctx context.Context, in PushInput) (Pushed, error) {
	store, err := s.openStore(ctx)
	if err != nil {
		return Pushed{}, err
	}
	s.stepKnowledge(ctx)
	opts := team.PushOptions{Agents: in.Agents, AllowSecret: in.AllowSecret, AllowUnrelated: in.AllowUnrelated, Regenerate: regenerate(store)}
	res, err := team.Push(ctx, store, in.Remote, opts)
	return Pushed{PushResult: res, Knowledge: s.takeStep()}, err
}

// regenerate regenerates, in a merge of global (a pull, or a push's own
// pulls), the generated files team does not make itself: knowledge/_index.md,
// from the merged articles. Like changelog.md, it is never merged.
func regenerate(store *agent.Store) func(staterepo.Hash) (staterepo.Hash, error) {
	topics := store.Project.Config.Knowledge.Topics
	return func(tree staterepo.Hash) (staterepo.Hash, error) {
		return knowledge.WithIndex(store.Repo, tree, topics)
	}
}
