package session

import (
	"context"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/knowledge"
	"github.com/planq-dev/planq/staterepo"
	"github.com/planq-dev/planq/team"
)

// Promoted is what Promote did: the promote, and the knowledge base update
// that followed it.
type Promoted struct {
	team.PromoteResult
	// Knowledge is what the knowledge base update after the promote did,
	// its failure included; nil when none ran (a dry run, nothing landed).
	Knowledge *knowledge.Summary `json:"knowledge,omitempty"`
}

// Promote promotes agent a's records into global (team.Promote), then,
// once records landed, brings the knowledge base in step with them in a
// commit of its own (knowledge.Update). The promote has landed by then: a
// failed update is reported in Knowledge, never returned, and 'planq kb
// update' does it again.
func Promote(ctx context.Context, store *agent.Store, a *agent.Agent, opts team.PromoteOptions) (Promoted, error) {
	res, err := team.Promote(ctx, store, a, opts)
	out := Promoted{PromoteResult: res}
	if err == nil && res.Commit != "" && !res.MarkedMerged {
		out.Knowledge = knowledge.UpdateAfter(ctx, store, kbOptions(store))
	}
	return out, err
}

// Pulled is what Pull did: the pull, and the knowledge base update that
// followed it.
type Pulled struct {
	team.PullResult
	// Knowledge is what the knowledge base update after the pull did, its
	// failure included; nil when none ran (global did not move).
	Knowledge *knowledge.Summary `json:"knowledge,omitempty"`
}

// Pull pulls the team's global from remote (team.Pull), regenerating
// knowledge/_index.md in a merge as changelog.md is (never merged), then,
// when global moved, brings the knowledge base in step with what came, in
// a commit of its own. A failed update is reported in Knowledge, never
// returned: the pull has landed.
func Pull(ctx context.Context, store *agent.Store, remote string, opts team.PullOptions) (Pulled, error) {
	opts.Regenerate = Regenerate(store)
	res, err := team.Pull(ctx, store, remote, opts)
	out := Pulled{PullResult: res}
	if err == nil && (res.Outcome == "fast-forward" || res.Outcome == "merged") {
		out.Knowledge = knowledge.UpdateAfter(ctx, store, kbOptions(store))
	}
	return out, err
}

// Pushed is what Push did: the push, and the knowledge base updates that
// came with it.
type Pushed struct {
	team.PushResult
	// Knowledge is what the last knowledge base update of the push did,
	// its failure included.
	Knowledge *knowledge.Summary `json:"knowledge,omitempty"`
}

// Push publishes global to remote (team.Push) with the knowledge base in
// step: updated before, and after each merge the push makes when a
// teammate pushed first, so that what it publishes is what every pull of
// it would make, and the pulls change nothing. A failed update is reported
// in Knowledge, never returned.
func Push(ctx context.Context, store *agent.Store, remote string, opts team.PushOptions) (Pushed, error) {
	var out Pushed
	out.Knowledge = knowledge.UpdateAfter(ctx, store, kbOptions(store))
	opts.Regenerate = Regenerate(store)
	opts.AfterPull = func(ctx context.Context) { out.Knowledge = knowledge.UpdateAfter(ctx, store, kbOptions(store)) }
	res, err := team.Push(ctx, store, remote, opts)
	out.PushResult = res
	return out, err
}

// Regenerate regenerates, in a merge of global (a pull, or a push's own
// pulls), the generated files team does not make itself: knowledge/_index.md,
// from the merged articles. Like changelog.md, it is never merged.
func Regenerate(store *agent.Store) func(staterepo.Hash) (staterepo.Hash, error) {
	topics := store.Project.Config.Knowledge.Topics
	return func(tree staterepo.Hash) (staterepo.Hash, error) {
		return knowledge.WithIndex(store.Repo, tree, topics)
	}
}

func kbOptions(store *agent.Store) knowledge.Options {
	return knowledge.Options{Topics: store.Project.Config.Knowledge.Topics}
}

// KnowledgeInStep brings the knowledge base in step after a change to
// global that was neither a promote nor a pull, in a commit of its own:
// prune's archive and a restore change which learnings are current, and an
// article that still lists an archived one would tell every reader what
// the team set aside. The change has landed: a failed update is reported
// in the summary, never returned.
func KnowledgeInStep(ctx context.Context, store *agent.Store) *knowledge.Summary {
	return knowledge.UpdateAfter(ctx, store, kbOptions(store))
}
