package workspace

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/internal/failpoint"
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
	// Finished is true when the create finished one that stopped half way
	// (killed, say): the agent's branch, and maybe its workspace, were
	// there, unmounted and untouched.
	Finished bool `json:"finished,omitempty"`
}

// DefaultCodeBranch is the code branch of a workspace made for agent name.
func DefaultCodeBranch(name string) string { return "planq/" + name }

// Create sets up agent opts.Name: its state branch, its code workspace and
// the state worktree mounted at <workspace>/.planq/agent. On failure every
// step already taken is undone.
func Create(ctx context.Context, p *project.Project, opts CreateOptions) (Created, error) {
	if err := project.ValidateAgentName(opts.Name); err != nil {
		return Created{}, err
	}
	if err := staterepo.CheckMounts(p); err != nil {
		return Created{}, err
	}
	repo, err := staterepo.Open(p.StateRepo())
	if err != nil {
		return Created{}, err
	}
	st, err := agentBranchState(repo, opts)
	if err != nil {
		return Created{}, err
	}
	ws, codeBranch, adoptWorkspace, err := planWorkspace(ctx, p, opts, st.exists, st.unfinished)
	if err != nil {
		return Created{}, err
	}
	agentDir := filepath.Join(ws, project.AgentMount)
	if err := checkMountFree(agentDir, p.StateRepo()); err != nil {
		return Created{}, err
	}
	// From here on, undo on failure.
	var undo undoSteps
	res, err := createMounted(ctx, p, repo, opts, st, ws, codeBranch, adoptWorkspace, &undo)
	if err != nil {
		undo.run()
		return Created{}, err
	}
	return res, nil
}

// branchState is what Create finds of an agent's branch.
type branchState struct {
	tip    staterepo.Hash
	exists bool
	// unfinished is a branch a create killed half way left (see leftHalfMade).
	unfinished bool
	// staleMount is a worktree registered on the branch whose directory is gone.
	staleMount bool
}

// agentBranchState finds the branch of agent opts.Name, refusing one that
// exists unless opts resume it (or finish its create), one to resume that
// does not, and one that is mounted or was deleted under its mount.
func agentBranchState(repo *staterepo.Repo, opts CreateOptions) (branchState, error) {
	branch := project.AgentBranch(opts.Name)
	subject := "agent " + `"` + opts.Name + `"`
	tip, err := repo.Tip(branch)
	if err != nil && !planqerr.Is(err, planqerr.NotFound) {
		return branchState{}, err
	}
	st := branchState{tip: tip, exists: err == nil}
	wt, mounted, err := repo.WorktreeOf(branch)
	if err != nil {
		return branchState{}, err
	}
	if !st.exists {
		// A branch deleted under its mounted worktree: neither creating nor
		// resuming can work until it is back, and doctor can bring it back.
		if mounted && !wt.Missing {
			return branchState{}, planqerr.New(planqerr.Corrupt, subject, "is mounted at %s, but its branch %s is gone", wt.Path, branch).
				WithHint("run 'planq doctor --fix': it recreates the branch at its last tip")
		}
		if opts.Resume {
			return branchState{}, planqerr.New(planqerr.NotFound, subject, "has no branch %s to resume", branch).
				WithHint("drop --resume to create it")
		}
		return st, nil
	}
	if !opts.Resume {
		if st.unfinished, err = leftHalfMade(repo, opts.Name, tip); err != nil {
			return branchState{}, err
		}
		if !st.unfinished {
			return branchState{}, planqerr.New(planqerr.Exists, subject, "branch %s already exists", branch).
				WithHint("pick another name, or 'planq create %s --resume' to mount the existing branch", opts.Name)
		}
	}
	if mounted && !wt.Missing {
		return branchState{}, planqerr.New(planqerr.Exists, subject, "is already mounted at %s", wt.Path).
			WithHint("work there, or 'planq remove %s' first", opts.Name)
	}
	st.staleMount = mounted // registered, but its directory is gone
	return st, nil
}

// undoSteps undoes, last first, the steps a create took before it failed.
type undoSteps []func()

func (u undoSteps) run() {
	for i := len(u) - 1; i >= 0; i-- {
		u[i]()
	}
}

// createMounted makes what st says is missing of agent opts.Name (its
// branch, its code workspace ws unless adopted or --here) and mounts the
// branch in ws, adding to undo how to take each step back.
func createMounted(ctx context.Context, p *project.Project, repo *staterepo.Repo, opts CreateOptions, st branchState,
	ws, codeBranch string, adoptWorkspace bool, undo *undoSteps) (Created, error) {
	// Undo must run even if ctx was cancelled.
	cleanup := context.WithoutCancel(ctx)
	branch := project.AgentBranch(opts.Name)
	tip := st.tip
	if !st.exists {
		var err error
		if tip, err = newAgentBranch(ctx, repo, opts.Name); err != nil {
			return Created{}, err
		}
		*undo = append(*undo, func() { _ = repo.DeleteBranch(cleanup, branch, tip) })
		failpoint.Hit(failpoint.CreateBranched)
	}
	res := Created{Commit: tip.String(), Resumed: st.exists && !st.unfinished, Finished: st.unfinished}
	if adoptWorkspace {
		res.NewWorkspace, res.CodeBranch = true, codeBranch
	} else if !opts.Here {
		if err := addCodeWorkspace(ctx, p, ws, codeBranch, undo); err != nil {
			return Created{}, err
		}
		res.NewWorkspace, res.CodeBranch = true, codeBranch
		failpoint.Hit(failpoint.CreateWorkspaceAdded)
	}
	if err := mountBranch(ctx, p, repo, filepath.Join(ws, project.AgentMount), branch, st.staleMount); err != nil {
		return Created{}, err
	}
	res.Env = EnvFor(p, opts.Name, ws)
	return res, nil
}

// addCodeWorkspace adds the code workspace ws on codeBranch, made from
// HEAD when it does not exist.
func addCodeWorkspace(ctx context.Context, p *project.Project, ws, codeBranch string, undo *undoSteps) error {
	cleanup := context.WithoutCancel(ctx)
	code := staterepo.OpenCode(p.Root)
	createBranch := !code.BranchExists(codeBranch)
	if err := os.MkdirAll(filepath.Dir(ws), 0o755); err != nil {
		return err
	}
	if err := code.AddWorktree(ctx, ws, codeBranch, createBranch); err != nil {
		return err
	}
	*undo = append(*undo, func() {
		_ = code.RemoveWorktree(cleanup, ws, true)
		if createBranch {
			_ = code.DeleteBranch(cleanup, codeBranch)
		}
	})
	return nil
}

// mountBranch mounts the agent's branch at agentDir, first pruning the
// stale registration that would block it.
func mountBranch(ctx context.Context, p *project.Project, repo *staterepo.Repo, agentDir, branch string, staleMount bool) error {
	if err := os.MkdirAll(filepath.Dir(agentDir), 0o755); err != nil {
		return err
	}
	if staleMount {
		if err := repo.PruneWorktrees(ctx); err != nil {
			return err
		}
	}
	if err := repo.AddWorktree(ctx, agentDir, branch); err != nil {
		return err
	}
	_, err := EnsureExclude(p.CommonGitDir)
	return err
}

// planWorkspace decides where the agent is mounted and on which code branch.
// exists says whether the agent's branch exists already, so that a hint
// mounting it says --resume. When finishing a create that stopped half way,
// the workspace it made is adopted (adopt is true) if nothing is in it yet.
func planWorkspace(ctx context.Context, p *project.Project, opts CreateOptions, exists, finishing bool) (ws, branch string, adopt bool, err error) {
	if opts.Here {
		if opts.Branch != "" {
			return "", "", false, planqerr.New(planqerr.Invalid, "--branch", "does not go with --here").
				WithHint("switch the branch of this checkout yourself, or drop --here")
		}
		return p.Workspace, "", false, nil
	}
	ws = p.WorkspacePath(opts.Name)
	branch = opts.Branch
	if branch == "" {
		branch = DefaultCodeBranch(opts.Name)
	}
	if !staterepo.ValidBranchName(branch) {
		return "", "", false, planqerr.New(planqerr.Invalid, "branch "+`"`+branch+`"`, "is not a valid git branch name")
	}
	if _, err := os.Stat(ws); err == nil {
		if finishing && halfMadeWorkspace(ctx, p, ws, branch) {
			return ws, branch, true, nil
		}
		resume := ""
		if exists {
			resume = " --resume"
		}
		return "", "", false, planqerr.New(planqerr.Exists, ws, "workspace directory already exists").
			WithHint("move it away, or mount the agent in it: cd %s && planq create %s --here%s", ws, opts.Name, resume)
	}
	return ws, branch, false, nil
}

// leftHalfMade says whether the agent branch at tip is what a create killed
// half way leaves: nothing on it but its creation, and mounted nowhere.
// Finishing that create loses nothing, so running it again does.
func leftHalfMade(repo *staterepo.Repo, name string, tip staterepo.Hash) (bool, error) {
	wt, mounted, err := repo.WorktreeOf(project.AgentBranch(name))
	if err != nil || (mounted && !wt.Missing) {
		return false, err
	}
	c, err := repo.Commit(tip)
	if err != nil {
		return false, err
	}
	return c.Subject() == createSubject(name) && len(c.Parents) == 1, nil
}

// halfMadeWorkspace says whether ws is a workspace a create killed half way
// made: a live worktree of the code repository on branch, with no changes
// and nothing at .planq/agent.
func halfMadeWorkspace(ctx context.Context, p *project.Project, ws, branch string) bool {
	if _, err := os.Lstat(filepath.Join(ws, project.AgentMount)); !errors.Is(err, os.ErrNotExist) {
		return false
	}
	if wt, ok := codeWorktreeAt(p, ws); !ok || wt.Branch != branch {
		return false
	}
	changes, err := staterepo.OpenCode(p.Root).Changes(ctx, ws)
	return err == nil && len(changes) == 0
}

func createSubject(name string) string { return "planq: create agent " + name }

// checkMountFree refuses to mount over something already at .planq/agent.
func checkMountFree(agentDir, repoPath string) error {
	_, err := os.Lstat(agentDir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if m, dead := staterepo.DeadMountAt(agentDir, repoPath); dead {
		return m.Err()
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
		createSubject(name)+"\n\nPlanq-Agent: "+name+"\n")
	if planqerr.Is(err, planqerr.Exists) {
		return staterepo.ZeroHash, planqerr.New(planqerr.Exists, `agent "`+name+`"`, "branch %s already exists", branch).
			WithHint("another planq created it a moment ago; pick another name")
	}
	return commit, err
}
