package agent

import (
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/staterepo"
)

// Agent is one agent of a project as its writer: its state branch and,
// when mounted, the worktree where it writes. Its Ref is the plain
// reference a reader needs.
type Agent struct {
	readmodel.Ref

	store *Store
}

// Store returns the store the agent was opened from.
func (a *Agent) Store() *Store { return a.store }

// Agent opens the agent called name, mounted or not.
func (s *Store) Agent(name string) (*Agent, error) {
	r, err := s.Handle.Agent(name)
	if err != nil {
		return nil, err
	}
	return &Agent{Ref: r, store: s}, nil
}

// AgentAt opens the agent mounted in the workspace at dir, if any.
func (s *Store) AgentAt(workspace string) (*Agent, bool, error) {
	r, ok, err := s.Handle.AgentAt(workspace)
	if !ok || err != nil {
		return nil, ok, err
	}
	return &Agent{Ref: r, store: s}, true, nil
}

// Resolve finds the agent a command acts on: the one named, else the one
// mounted in the current workspace, else the one PLANQ_AGENT_DIR points at.
func (s *Store) Resolve(name string) (*Agent, error) {
	r, err := s.Handle.Resolve(name)
	if err != nil {
		return nil, err
	}
	return &Agent{Ref: r, store: s}, nil
}

func quote(s string) string { return `"` + s + `"` }

// requireMounted fails when the agent has no worktree to write in.
func (a *Agent) requireMounted() error {
	if a.Dir != "" {
		return nil
	}
	return planqerr.New(planqerr.NotFound, "agent "+quote(a.Name), "is not mounted in any workspace").
		WithHint("mount it with 'planq create %s --resume' (add --here to use this checkout)", a.Name)
}

// Worktree returns the agent's mounted state worktree.
func (a *Agent) Worktree() (*staterepo.Worktree, error) {
	if err := a.requireMounted(); err != nil {
		return nil, err
	}
	return a.store.Repo.OpenWorktree(a.Dir), nil
}
