package agent

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// Agent is one agent of a project: its state branch and, when mounted, the
// worktree where it writes.
type Agent struct {
	Name   string
	Branch string
	// Dir is the mounted state worktree (<workspace>/.planq/agent), or ""
	// when the agent is not mounted anywhere.
	Dir string
	// Workspace is the code checkout the agent is mounted in.
	Workspace string

	store *Store
}

// Store returns the store the agent was opened from.
func (a *Agent) Store() *Store { return a.store }

// Agent opens the agent called name, mounted or not.
func (s *Store) Agent(name string) (*Agent, error) {
	if err := project.ValidateName("agent", name); err != nil {
		return nil, err
	}
	branch := project.AgentBranch(name)
	if _, err := s.Repo.Tip(branch); err != nil {
		if planqerr.Is(err, planqerr.NotFound) {
			return nil, planqerr.New(planqerr.NotFound, "agent "+quote(name), "does not exist").
				WithHint("run 'planq list' to see the agents, or 'planq create %s'", name)
		}
		return nil, err
	}
	a := &Agent{Name: name, Branch: branch, store: s}
	wt, ok, err := s.Repo.WorktreeOf(branch)
	if err != nil {
		return nil, err
	}
	if ok && !wt.Missing {
		a.Dir = wt.Path
		a.Workspace = workspaceOf(wt.Path)
	}
	return a, nil
}

// AgentAt opens the agent mounted in the workspace at dir, if any.
func (s *Store) AgentAt(workspace string) (*Agent, bool, error) {
	dir := filepath.Join(workspace, project.AgentMount)
	if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil {
		return nil, false, nil
	}
	branch, err := s.Repo.OpenWorktree(dir).Branch()
	if err != nil {
		return nil, false, err
	}
	name, ok := strings.CutPrefix(branch, project.AgentBranchPrefix)
	if !ok {
		return nil, false, planqerr.New(planqerr.Corrupt, dir, "has branch %s checked out, not an agent branch", branch).
			WithHint("switch it back: git -C %s switch agent-<name>", dir)
	}
	return &Agent{Name: name, Branch: branch, Dir: dir, Workspace: workspace, store: s}, true, nil
}

// Resolve finds the agent a command acts on: the one named, else the one
// mounted in the current workspace, else the one PLANQ_AGENT_DIR points at.
func (s *Store) Resolve(name string) (*Agent, error) {
	if name != "" {
		return s.Agent(name)
	}
	if a, ok, err := s.AgentAt(s.Project.Workspace); ok || err != nil {
		return a, err
	}
	if dir := os.Getenv("PLANQ_AGENT_DIR"); dir != "" {
		if a, ok, err := s.AgentAt(workspaceOf(dir)); ok || err != nil {
			return a, err
		}
	}
	return nil, planqerr.New(planqerr.NotFound, s.Project.Workspace, "no agent is mounted here").
		WithHint("name the agent ('planq list' shows them), work in an agent's workspace, or mount one here: planq create NAME --here")
}

// workspaceOf maps <workspace>/.planq/agent to <workspace>.
func workspaceOf(agentDir string) string { return filepath.Dir(filepath.Dir(agentDir)) }

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

// Global is a read-only view of the global branch as if it were an agent
// without a worktree: what readers use where no agent is mounted.
func (s *Store) Global() *Agent {
	return &Agent{Name: project.GlobalBranch, Branch: project.GlobalBranch, store: s}
}
