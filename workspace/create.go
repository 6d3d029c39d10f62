package workspace

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// CreateOptions are the choices of `planq create`.
type CreateOptions struct {
	Name string
	// Here mounts the agent in the current checkout instead of a new workspace.
	Here bool
	// Branch is the code branch of a new workspace; default planq/<name>.
	// An existing branch is checked out, a new one starts at HEAD.
	Branch string
	// Resume mounts an existing agent branch instead of failing.
	Resume bool
}

// Created describes a new (or resumed) agent.
type Created struct {
	Env
	CodeBranch string `json:"code_branch,omitempty"`
	// Commit is the agent branch's tip.
	Commit string `json:"commit"`
	// NewWorkspace is true when planq made the code workspace.
	NewWorkspace bool `json:"new_workspace"`
	Resumed      bool `json:"resumed"`
}

// DefaultCodeBranch is the code branch of a workspace made for agent name.
func DefaultCodeBranch(name string) string { return "planq/" + name }

// Create sets up agent opts.Name: its state branch, its code workspace and
// the state worktree mounted at <workspace>/.planq/agent. On failure every
// step already taken is undone.
func Create(ctx context.Context, p *project.Project, opts CreateOptions) (Created, error) {
	if err := project.ValidateName("agent", opts.Name); err != nil {
		return Created{}, err
	}
	repo, err := staterepo.Open(p.StateRepo())
	if err != nil {
		return Created{}, err
	}
	branch := project.AgentBranch(opts.Name)
	subject := "agent " + `"` + opts.Name + `"`
	tip, err := repo.Tip(branch)
	exists := err == nil
	switch {
	case err != nil && !planqerr.Is(err, planqerr.NotFound):
		return Created{}, err
	case exists && !opts.Resume:
		return Created{}, planqerr.New(planqerr.Exists, subject, "branch %s already exists", branch).
			WithHint("pick another name, or 'planq create %s --resume' to mount the existing branch", opts.Name)
	case !exists && opts.Resume:
		return Created{}, planqerr.New(planqerr.NotFound, subject, "has no branch %s to resume", branch).
			WithHint("drop --resume to create it")
	}
	staleMount := false
	if exists {
		wt, ok, err := repo.WorktreeOf(branch)
		if err != nil {
			return Created{}, err
		}
		if ok && !wt.Missing {
			return Created{}, planqerr.New(planqerr.Exists, subject, "is already mounted at %s", wt.Path).
				WithHint("work there, or 'planq remove %s' first", opts.Name)
		}
		staleMount = ok // registered, but its directory is gone
	}

	ws, codeBranch, err := planWorkspace(p, opts, exists)
	if err != nil {
		return Created{}, err
	}
	agentDir := filepath.Join(ws, project.AgentMount)
	if err := checkMountFree(agentDir); err != nil {
		return Created{}, err
	}

	// From here on, undo on failure. Undo must run even if ctx was cancelled.
	var undo []func()
	fail := func(err error) (Created, error) {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
		return Created{}, err
	}
	cleanup := context.WithoutCancel(ctx)

	if !exists {
		if tip, err = newAgentBranch(ctx, repo, opts.Name); err != nil {
			return fail(err)
		}
		undo = append(undo, func() { _ = repo.DeleteBranch(cleanup, branch, tip) })
	}
	res := Created{Commit: tip.String(), Resumed: exists}
	if !opts.Here {
		code := staterepo.OpenCode(p.Root)
		createBranch := !code.BranchExists(codeBranch)
		if err := os.MkdirAll(filepath.Dir(ws), 0o755); err != nil {
			return fail(err)
		}
		if err := code.AddWorktree(ctx, ws, codeBranch, createBranch); err != nil {
			return fail(err)
		}
		undo = append(undo, func() {
			_ = code.RemoveWorktree(cleanup, ws, true)
			if createBranch {
				_ = code.DeleteBranch(cleanup, codeBranch)
			}
		})
		res.NewWorkspace, res.CodeBranch = true, codeBranch
	}
	if err := os.MkdirAll(filepath.Dir(agentDir), 0o755); err != nil {
		return fail(err)
	}
	if staleMount { // a stale registration would block the branch
		if err := repo.PruneWorktrees(ctx); err != nil {
			return fail(err)
		}
	}
	if err := repo.AddWorktree(ctx, agentDir, branch); err != nil {
		return fail(err)
	}
	if _, err := EnsureExclude(p.CommonGitDir); err != nil {
		return fail(err)
	}
	res.Env = EnvFor(p, opts.Name, ws)
	return res, nil
}

// planWorkspace decides where the agent is mounted and on which code branch.
// exists says whether the agent's branch exists already, so that a hint
// mounting it says --resume.
func planWorkspace(p *project.Project, opts CreateOptions, exists bool) (string, string, error) {
	if opts.Here {
		if opts.Branch != "" {
			return "", "", planqerr.New(planqerr.Invalid, "--branch", "does not go with --here").
				WithHint("switch the branch of this checkout yourself, or drop --here")
		}
		return p.Workspace, "", nil
	}
	ws := p.WorkspacePath(opts.Name)
	if _, err := os.Stat(ws); err == nil {
		resume := ""
		if exists {
			resume = " --resume"
		}
		return "", "", planqerr.New(planqerr.Exists, ws, "workspace directory already exists").
			WithHint("move it away, or mount the agent in it: cd %s && planq create %s --here%s", ws, opts.Name, resume)
	}
	branch := opts.Branch
	if branch == "" {
		branch = DefaultCodeBranch(opts.Name)
	}
	if !staterepo.ValidBranchName(branch) {
		return "", "", planqerr.New(planqerr.Invalid, "branch "+`"`+branch+`"`, "is not a valid git branch name")
	}
	return ws, branch, nil
}

// checkMountFree refuses to mount over something already at .planq/agent.
func checkMountFree(agentDir string) error {
	_, err := os.Lstat(agentDir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if staterepo.IsLiveWorktree(agentDir) {
		return planqerr.New(planqerr.Exists, agentDir, "an agent is already mounted here").
			WithHint("run 'planq list' to see which; one workspace holds one agent")
	}
	return planqerr.New(planqerr.Corrupt, agentDir, "exists but is not a mounted agent (left by a crash?)").
		WithHint("run 'planq doctor --fix': it moves the directory aside, keeping its files")
}

// newAgentBranch creates agent-<name> from global, adding the agent's notes.
func newAgentBranch(ctx context.Context, repo *staterepo.Repo, name string) (staterepo.Hash, error) {
	branch := project.AgentBranch(name)
	commit, err := repo.CreateBranch(ctx, branch, project.GlobalBranch, agent.InitialNotes(),
		"planq: create agent "+name+"\n\nPlanq-Agent: "+name+"\n")
	if planqerr.Is(err, planqerr.Exists) {
		return staterepo.ZeroHash, planqerr.New(planqerr.Exists, `agent "`+name+`"`, "branch %s already exists", branch).
			WithHint("another planq created it a moment ago; pick another name")
	}
	return commit, err
}
