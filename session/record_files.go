package session

import (
	"context"
	"strings"
	"time"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/branchctx"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
)

// What the agent's files beside its records (scratch, artifacts, branch
// context), the team's plan and the reads around them hand back.
type (
	// CheckpointInfo is one checkpoint: its agent, name, commit, time and
	// note.
	CheckpointInfo = agent.CheckpointInfo
	// Artifact is one file of an agent's artifacts/.
	Artifact = agent.Artifact
)

// MaxArtifactSize is the most an artifact holds.
const MaxArtifactSize = agent.MaxArtifactSize

// ScratchInput is a change of the agent's scratch notes: Text appended,
// or with Replace, the notes replaced by it.
type ScratchInput struct {
	Author
	Text    string
	Replace bool
}

// WriteScratch changes the agent's scratch notes and commits them.
func (s *Project) WriteScratch(ctx context.Context, in ScratchInput) (Written, error) {
	if !in.Replace && strings.TrimSpace(in.Text) == "" {
		return Written{}, planqerr.New(planqerr.Invalid, "scratch", "text is empty").WithHint("say what happened, in a sentence or more")
	}
	return s.writeAs(ctx, in.Author, func(a *agent.Agent, o agent.WriteOptions) (Written, error) {
		if in.Replace {
			return a.SetScratch(ctx, in.Text, o)
		}
		return a.AppendScratch(ctx, in.Text, o)
	})
}

// ScratchNotes are an agent's scratch notes.
type ScratchNotes struct {
	Agent string `json:"agent"`
	Text  string `json:"scratch"`
}

// Scratch reads the scratch notes of the agent named (or mounted).
func (s *Project) Scratch(ctx context.Context, agentName string) (ScratchNotes, error) {
	a, err := s.agent(ctx, agentName)
	if err != nil {
		return ScratchNotes{}, err
	}
	text, err := a.Scratch()
	return ScratchNotes{Agent: a.Name, Text: text}, err
}

// Plan is the team's plan, global's plan.md: "" before one is set.
func (s *Project) Plan(ctx context.Context) (string, error) {
	h, err := s.handle(ctx)
	if err != nil {
		return "", err
	}
	return h.Records.Plan()
}

// SetPlan replaces the team's plan in one commit on global, and returns
// that commit.
func (s *Project) SetPlan(ctx context.Context, text string, allowSecret bool) (string, error) {
	store, err := s.openStore(ctx)
	if err != nil {
		return "", err
	}
	commit, err := store.SetPlan(ctx, text, allowSecret)
	return commit.String(), err
}

// ArtifactInput is a file to keep in the agent's artifacts/.
type ArtifactInput struct {
	Author
	Name string
	Data []byte
}

// AddArtifact stores a file in the agent's artifacts/ and commits it.
func (s *Project) AddArtifact(ctx context.Context, in ArtifactInput) (Written, error) {
	return s.writeAs(ctx, in.Author, func(a *agent.Agent, o agent.WriteOptions) (Written, error) {
		return a.AddArtifact(ctx, in.Name, in.Data, o)
	})
}

// Artifacts lists the artifacts on the branch of the agent named (or
// mounted).
func (s *Project) Artifacts(ctx context.Context, agentName string) ([]Artifact, error) {
	a, err := s.agent(ctx, agentName)
	if err != nil {
		return nil, err
	}
	return a.Artifacts()
}

// Checkpoints lists the checkpoints of the agent named (or mounted), or
// with all of every agent, oldest first.
func (s *Project) Checkpoints(ctx context.Context, agentName string, all bool) ([]CheckpointInfo, error) {
	store, err := s.openStore(ctx)
	if err != nil {
		return nil, err
	}
	who := ""
	if !all {
		a, err := store.Resolve(agentName)
		if err != nil {
			return nil, err
		}
		who = a.Name
	}
	list, err := store.Checkpoints(who)
	if list == nil {
		list = []CheckpointInfo{}
	}
	return list, err
}

// BranchInput names a code branch whose context an agent reads or writes
// (Branch "": the one checked out where the service was opened), and for
// a write, Text to append to its body or, with Replace, to replace it.
type BranchInput struct {
	Author
	Branch  string
	Text    string
	Replace bool
}

// BranchView is a code branch's context as an agent sees it: its own
// (Source "agent") or the team's ("global"). Context is nil when the
// branch has none.
type BranchView struct {
	*branchctx.Context
	Source string `json:"source"`
	// Code names the code branch.
	Code string `json:"-"`
}

// Text is the body to edit: the context's, or the one a branch's context
// starts with.
func (v BranchView) Text() string {
	if v.Context == nil {
		return branchctx.New(v.Code, "", time.Time{}).Body
	}
	return v.Body
}

// Branch reads a code branch's context.
func (s *Project) Branch(ctx context.Context, in BranchInput) (BranchView, error) {
	a, branch, err := s.branchOf(ctx, in)
	if err != nil {
		return BranchView{}, err
	}
	c, source, err := a.BranchContext(branch)
	return BranchView{Context: c, Source: source, Code: branch}, err
}

// WriteBranch changes a code branch's context on the agent's branch and
// commits it.
func (s *Project) WriteBranch(ctx context.Context, in BranchInput) (Written, error) {
	a, branch, err := s.branchOf(ctx, in)
	if err != nil {
		return Written{}, err
	}
	w, _, err := a.EditBranchContext(ctx, branch, func(c *branchctx.Context) {
		if in.Replace {
			c.Body = in.Text
			return
		}
		c.Body = strings.TrimRight(c.Body, "\n") + "\n\n" + in.Text + "\n"
	}, in.options())
	return w, err
}

// branchOf resolves the agent and the code branch a branch command is
// about.
func (s *Project) branchOf(ctx context.Context, in BranchInput) (*agent.Agent, string, error) {
	if in.Branch != "" {
		if err := project.CheckCodeBranch(in.Branch); err != nil {
			return nil, "", err
		}
	}
	a, err := s.agent(ctx, in.Agent)
	if err != nil || in.Branch != "" {
		return a, in.Branch, err
	}
	p, err := s.project()
	if err != nil {
		return nil, "", err
	}
	code, err := branchctx.Current(p.Workspace)
	if err != nil || code.Branch == "" {
		return nil, "", planqerr.New(planqerr.Invalid, p.Workspace, "has no branch checked out (detached HEAD)").
			WithHint("name one with --branch")
	}
	return a, code.Branch, nil
}
