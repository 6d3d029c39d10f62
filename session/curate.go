package session

import (
	"context"
	"io"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/curation"
	"github.com/planq-dev/planq/readmodel"
)

// What curation (notes into instruction-file proposals) hands its front
// ends.
type (
	// CurationPacket is the curating agent's work: every raw note, the
	// instruction files, the rules, how to answer.
	CurationPacket = curation.Packet
	// Proposal is a curating agent's answer: the instruction files as
	// they should read, a summary, the notes used and discarded.
	Proposal = curation.Proposal
	// ProposalView is a proposal as a reviewer sees it, in its state now.
	ProposalView = curation.View
	// ProposalApplied is what applying a proposal committed.
	ProposalApplied = curation.Applied
	// NoteFilter chooses notes by state, agent, type, workspace and time.
	NoteFilter = curation.NoteFilter
	// NoteList is the notes a filter chose.
	NoteList = curation.NoteList
)

// A proposal's states a front end tells apart.
const (
	ProposalStale     = curation.StateStale
	ProposalBroken    = curation.StateBroken
	ProposalDismissed = curation.StateDismissed
)

// ErrProposalStale is in the error of an apply refused because a file
// changed since the proposal was made.
var ErrProposalStale = curation.ErrStale

// Who is how a proposal's writer or decider is shown: global's writer is
// the lead.
func Who(writer string) string { return curation.Who(writer) }

// DecodeProposal reads a curating agent's answer: bare JSON, or the one
// proposal in a fenced block or among sentences.
func DecodeProposal(r io.Reader) (Proposal, error) { return curation.DecodeProposal(r) }

// PendingProposals counts the proposals that wait for a person.
func PendingProposals(views []ProposalView) int { return curation.Pending(views) }

// Curate gathers the curating agent's work packet. agent, when named (an
// MCP caller says who asks), must be one of the project's.
func (s *Project) Curate(ctx context.Context, agent string) (CurationPacket, error) {
	if _, err := s.reader(ctx, agent); err != nil {
		return CurationPacket{}, err
	}
	h, err := s.handle(ctx)
	if err != nil {
		return CurationPacket{}, err
	}
	return curation.BuildPacket(ctx, h, h.Project.Workspace)
}

// ProposeInput is a curating agent's proposal to keep for review.
type ProposeInput struct {
	// Agent is who proposes: the agent named, else the one mounted here,
	// else the lead (global).
	Agent string
	Proposal
}

// Proposed is the proposal kept, and what became of each file it named
// through a symbolic link (moved to the link's target, or left out).
type Proposed struct {
	View    ProposalView
	Settled []string
}

// Propose checks a proposal and keeps it on global for a person to apply
// or dismiss; the notes it cites become proposed in the same commit.
func (s *Project) Propose(ctx context.Context, in ProposeInput) (Proposed, error) {
	store, err := s.openStore(ctx)
	if err != nil {
		return Proposed{}, err
	}
	who, err := s.writer(ctx, in.Agent)
	if err != nil {
		return Proposed{}, err
	}
	p := store.Project
	rec, err := curation.Propose(ctx, store, p.Workspace, who, in.Proposal)
	if err != nil {
		return Proposed{}, err
	}
	_, said := curation.Settle(p.Workspace, p.Config.InstructionFiles(), in.Proposal)
	v, err := curation.Show(ctx, store.Handle, p.Workspace, rec.ID)
	return Proposed{View: v, Settled: said}, err
}

// Proposals lists every proposal, newest first, in its state now; with
// diffs, each undecided one with its files' proposed content and diff.
func (s *Project) Proposals(ctx context.Context, diffs bool) ([]ProposalView, error) {
	store, err := s.openStore(ctx)
	if err != nil {
		return nil, err
	}
	if diffs {
		return curation.ListWithDiffs(ctx, store.Handle, store.Project.Workspace)
	}
	return curation.List(ctx, store.Handle, store.Project.Workspace)
}

// Proposal shows one proposal, by any of its versions' IDs, with a diff
// per file against the checkout as it is now.
func (s *Project) Proposal(ctx context.Context, id string) (ProposalView, error) {
	store, err := s.openStore(ctx)
	if err != nil {
		return ProposalView{}, err
	}
	return curation.Show(ctx, store.Handle, store.Project.Workspace, id)
}

// TouchedProposals are the proposals an apply or dismiss of id changed,
// or found changed, in their state now, and how many wait for a person;
// none when id names no proposal.
func (s *Project) TouchedProposals(ctx context.Context, id string) ([]ProposalView, int) {
	store, err := s.openStore(ctx)
	if err != nil {
		return nil, 0
	}
	views, pending, err := curation.Touched(ctx, store.Handle, store.Project.Workspace, id)
	if err != nil {
		return nil, 0
	}
	return views, pending
}

// ApplyInput is a person's apply of a proposal.
type ApplyInput struct {
	ID string
	// Edited replaces the proposed content of the files it names.
	Edited map[string]string
	// AllowRemovals lets an edit remove or reword lines the files hold.
	AllowRemovals bool
	// By is who the decision is recorded as ("" for Writer).
	By string
}

// ApplyProposal writes a pending proposal's files into the checkout and
// commits them, and only them; never pushes. The proposal and its notes
// change state in one commit on global.
func (s *Project) ApplyProposal(ctx context.Context, in ApplyInput) (ProposalApplied, error) {
	store, err := s.openStore(ctx)
	if err != nil {
		return ProposalApplied{}, err
	}
	return curation.Apply(ctx, store, store.Project.Workspace, s.by(ctx, in.By), in.ID,
		curation.ApplyOptions{Edited: in.Edited, AllowRemovals: in.AllowRemovals})
}

// DismissProposal dismisses a pending or stale proposal and the notes it
// cites, as by ("" for Writer), in one commit on global; it returns the
// proposal's new version.
func (s *Project) DismissProposal(ctx context.Context, id, by string) (string, error) {
	store, err := s.openStore(ctx)
	if err != nil {
		return "", err
	}
	return curation.Dismiss(ctx, store, s.by(ctx, by), id)
}

func (s *Project) by(ctx context.Context, by string) string {
	if by == "" {
		return s.Writer(ctx)
	}
	return by
}

// Notes lists the notes of global and every agent branch, each in its
// current state, that f keeps, newest first.
func (s *Project) Notes(ctx context.Context, f NoteFilter) (NoteList, error) {
	h, err := s.handle(ctx)
	if err != nil {
		return NoteList{}, err
	}
	return curation.Notes(h, f)
}

// NoteIndex maps every version of every note to its text, and to the ID
// the note was first written under: the ID a proposal cites, whichever
// state the note is in now.
func (s *Project) NoteIndex(ctx context.Context) (texts, firsts map[string]string, err error) {
	h, err := s.handle(ctx)
	if err != nil {
		return nil, nil, err
	}
	set, err := h.Records.All(changelog.KindNote)
	if err != nil {
		return nil, nil, err
	}
	texts, firsts = make(map[string]string, len(set.Records)), make(map[string]string, len(set.Records))
	supersedes := make(map[string]string, len(set.Records))
	for _, r := range set.Records {
		texts[r.ID] = r.Body
		supersedes[r.ID] = r.Supersedes
	}
	for id := range supersedes {
		first := id
		for seen := 0; supersedes[first] != "" && seen < len(supersedes); seen++ {
			if _, ok := supersedes[supersedes[first]]; !ok {
				break // an older version no branch holds
			}
			first = supersedes[first]
		}
		firsts[id] = first
	}
	return texts, firsts, nil
}

// DomainStatus is one domain's learnings by state, and its weeks.
type DomainStatus = readmodel.DomainStatus

// AgentNames are the project's agents, mounted or not.
func (s *Project) AgentNames(ctx context.Context) ([]string, error) {
	h, err := s.handle(ctx)
	if err != nil {
		return nil, err
	}
	return h.AgentNames()
}
