package session

import (
	"context"
	"fmt"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/internal/memtool"
	"github.com/planq-dev/planq/planqerr"
)

// MemoryCommand is one command of the memory-tool protocol (view, create,
// str_replace, insert, delete, rename under /memories), as the model
// sends it.
type MemoryCommand = memtool.Command

// MemoryRefusal is a command the protocol refuses: its Text is the answer
// the model is shown.
type MemoryRefusal = memtool.Refusal

// MemoryInput is one memory-tool command and whose memories/ it acts on:
// planq memtool's stdin and flags, and planq_memory's arguments.
type MemoryInput struct {
	// Agent names the agent; empty means the one mounted here.
	Agent string `json:"agent,omitempty"`
	// AllowSecret stores text that looks like a credential (never in the
	// user layer).
	AllowSecret bool `json:"allow_secret,omitempty"`
	// Scope is whose memories/: ScopeAgent's (the default) or ScopeUser's,
	// what a person keeps across projects.
	Scope Scope `json:"scope,omitempty"`
	MemoryCommand
}

// MemoryScopes are the scopes the memory tool takes.
var MemoryScopes = []Scope{ScopeAgent, ScopeUser}

// MemoryResult is what a memory-tool command did.
type MemoryResult struct {
	// Text is the protocol's answer to show the model.
	Text string
	// Commit is the change's commit, "" for a view; Paths the files it
	// changed.
	Commit string
	Paths  []string
	// Agent is whose memories/ it acted on, "" for the user layer's.
	Agent string
	// MadeUserLayer is the user layer's path when this command made it.
	MadeUserLayer string
}

// ParseMemoryCommand reads one command from its JSON, refusing with the
// protocol's answer what is too long, not an object, or wrongly typed.
func ParseMemoryCommand(data []byte) (MemoryCommand, error) {
	if len(data) > memtool.MaxCommandSize {
		return MemoryCommand{}, &MemoryRefusal{Kind: planqerr.Invalid,
			Text: fmt.Sprintf("Error: The command is over %d bytes; a memory file holds at most 64 KiB", memtool.MaxCommandSize)}
	}
	return memtool.Parse(data)
}

// MaxMemoryCommand bounds the JSON of one command (ParseMemoryCommand
// refuses more): a reader need read no more than one byte past it.
const MaxMemoryCommand = memtool.MaxCommandSize

// AsMemoryRefusal returns the refusal err is, if it is one.
func AsMemoryRefusal(err error) (*MemoryRefusal, bool) { return memtool.AsRefusal(err) }

// Memory carries out a memory-tool command on the agent's memories/ (its
// worktree's, one commit per change) or the user layer's (made on first
// use; one commit on its global per change). A command the protocol
// refuses returns a *MemoryRefusal; any other error is planq's own, and
// then nothing changed.
func (s *Project) Memory(ctx context.Context, in MemoryInput) (MemoryResult, error) {
	switch in.Scope {
	case ScopeAgent, "":
		return s.agentMemory(ctx, in)
	case ScopeUser:
		if in.Agent != "" {
			return MemoryResult{}, planqerr.New(planqerr.Invalid, "agent", "names an agent; the user layer has none").
				WithHint("leave the agent out with the user scope")
		}
		return s.userMemory(ctx, in.MemoryCommand)
	case ScopeGlobal, ScopeProject, ScopeAll: // the memory tool has no folder of its own there
	}
	return MemoryResult{}, planqerr.New(planqerr.Invalid, "scope", "%q is not a scope of the memory tool", in.Scope).
		WithHint("use agent (the agent's memories/, the default) or user (the user layer's)")
}

func (s *Project) agentMemory(ctx context.Context, in MemoryInput) (MemoryResult, error) {
	a, err := s.agent(ctx, in.Agent)
	if err != nil {
		return MemoryResult{}, err
	}
	f, err := memtool.ForAgent(a, agent.WriteOptions{AllowSecret: in.AllowSecret})
	if err != nil {
		return MemoryResult{}, err
	}
	res, err := memtool.Apply(ctx, f, in.MemoryCommand)
	return MemoryResult{Text: res.Text, Commit: res.Commit, Paths: res.Paths, Agent: a.Name}, err
}

// userMemory needs no project: the user layer is the person's.
func (s *Project) userMemory(ctx context.Context, c MemoryCommand) (MemoryResult, error) {
	l, made, err := s.layer(ctx, true)
	if err != nil {
		return MemoryResult{}, err
	}
	defer func() { _ = l.Close() }()
	f, done, err := memtool.ForUserLayer(l.Store)
	if err != nil {
		return MemoryResult{MadeUserLayer: made}, err
	}
	defer done()
	res, err := memtool.Apply(ctx, f, c)
	return MemoryResult{Text: res.Text, Commit: res.Commit, Paths: res.Paths, MadeUserLayer: made}, err
}
