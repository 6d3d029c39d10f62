package prime

import "github.com/planq-dev/planq/readmodel"

// Input is everything a document shows, read by the session before Build
// (session.Project.Prime gathers it): plain data, so that prime chooses and lays
// out and never reads.
type Input struct {
	// Summary is the agent's (global's, where no agent is mounted), with
	// the first of global's current learnings, ranked, in Team.
	Summary *Summary
	// Global says no agent is mounted where the session started: Summary is
	// the team's memory, read only.
	Global bool
	// Person is the git name (user.name) of the person whose checkout it is,
	// "" when git has none: a document of global is theirs, and what global
	// wrote (a lead's proposal) is named by it.
	Person string
	// GlobalWriter is the name what global wrote carries as its writer's
	// (its branch's name: global is no agent); the document names the lead
	// instead.
	GlobalWriter string
	// Plan is global's plan.
	Plan string
	// Relevant are the best records for the agent's task (its focus, its
	// code branch's context, the handoff it picks up), at most MaxRelevant.
	Relevant []readmodel.Hit
	// Knowledge is global's knowledge base: its articles, and those best
	// for the task.
	Knowledge Knowledge
	// Memories are the files the memory tool keeps in the agent's
	// memories/ folder, by path (none for global's document).
	Memories []readmodel.Memory
	// Stale says which of the records Cited names cite code that moved on.
	Stale readmodel.Staleness
	// User is what the user layer gives the session, when there is one.
	User UserLayer
	// Activity is each agent's latest entry: every agent's for a lead, for
	// an agent's startup what the others did lately; none when recovering.
	Activity []readmodel.Activity

	// A lead's document also shows what awaits promotion per agent, the
	// curation proposals waiting for a person (pending or stale), and the
	// domains of global's learnings (those that need attention are shown).
	Awaiting  []Awaiting
	Proposals []Proposal
	Domains   []readmodel.DomainStatus
}

// MaxRelevant is how many records the task's search shows.
const MaxRelevant = 5

// Awaiting is what one agent has that global has not.
type Awaiting struct {
	Agent string
	// Titles are the records that await promotion, in the order promote
	// would take them.
	Titles []string
}

// Proposal is a curation proposal waiting for a person.
type Proposal struct {
	ID        string
	State     string
	Agent     string
	Summary   string
	Additions int
	// Paths are the files it changes, in order.
	Paths []string
}
