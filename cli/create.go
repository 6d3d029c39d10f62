package cli

import (
	"context"
	"fmt"
	"os/exec"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
)

type createOptions struct {
	session.CreateInput
	tmux bool
	json bool
}

func newCreateCmd(env *Env) *cobra.Command {
	var opts createOptions
	cmd := &cobra.Command{
		Use:   "create NAME",
		Short: "Create an agent with its own workspace and state branch",
		Long: `Create agent NAME (letters, digits, '-' and '_'; not global, the team's branch):

  - a code workspace: a git worktree of this repository on branch planq/NAME
    (or --branch), under $PLANQ_HOME/workspaces/<project>/NAME (or the
    'workspaces' directory of .planq/config); --here uses this checkout instead,
  - the state branch agent-NAME, started from 'global' (it must not exist yet;
    --resume mounts an existing one),
  - its state worktree mounted at <workspace>/.planq/agent, with scratch.md,
    context.md and the record folders.

It prints the agent's environment as shell exports, so
  eval "$(planq create NAME)"
sets PLANQ_PROJECT_NAME, PLANQ_STATE_REPO, PLANQ_AGENT_BRANCH, PLANQ_AGENT_DIR and more.`,
		Example: "  planq create auth\n  planq create auth --branch feature/login\n  planq create reviewer --here\n  planq create auth --tmux",
		Args:    exactArgs(1, "the agent's NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = args[0]
			return runCreate(cmd.Context(), env, opts)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&opts.Here, "here", false, "mount the agent in the current checkout instead of a new workspace")
	f.StringVar(&opts.Branch, "branch", "", "code `BRANCH` of the new workspace (default planq/NAME; an existing branch is checked out)")
	f.BoolVar(&opts.Resume, "resume", false, "mount the existing branch agent-NAME instead of failing")
	f.BoolVar(&opts.tmux, "tmux", false, "start a detached tmux session in the workspace with the agent's environment")
	f.BoolVar(&opts.json, "json", false, "print the result as JSON")
	return cmd
}

func runCreate(ctx context.Context, env *Env, opts createOptions) error {
	if opts.tmux {
		if _, err := exec.LookPath("tmux"); err != nil {
			return planqerr.New(planqerr.Invalid, "--tmux", "tmux is not installed").
				WithHint("install tmux, or drop --tmux and run: eval \"$(planq env %s)\"", opts.Name)
		}
	}
	res, err := env.service().Create(ctx, opts.CreateInput)
	if err != nil {
		return err
	}
	verb := "created"
	switch {
	case res.Resumed:
		verb = "resumed"
	case res.Finished:
		verb = "finished creating" // a create killed half way left the branch
	}
	env.Log.Info(verb+" agent "+opts.Name, "branch", res.Branch, "commit", short(res.Commit), "agent_dir", res.AgentDir)
	if res.NewWorkspace {
		env.Log.Info("created code workspace", "path", res.Workspace, "code_branch", res.CodeBranch)
	}
	if opts.tmux {
		tmuxName := "planq-" + res.Project + "-" + opts.Name
		args := []string{"new-session", "-d", "-s", tmuxName, "-c", res.Workspace}
		for _, kv := range res.Vars() {
			args = append(args, "-e", kv[0]+"="+kv[1])
		}
		if out, err := exec.CommandContext(ctx, "tmux", args...).CombinedOutput(); err != nil {
			return planqerr.New(planqerr.Failure, "tmux", "failed to start session %s: %s", tmuxName, out).
				WithHint("the agent was created; start a session yourself: tmux new -s %s -c %s", tmuxName, res.Workspace)
		}
		env.Log.Info("started tmux session", "session", tmuxName, "attach", "tmux attach -t "+tmuxName)
	}
	if opts.json {
		return env.writeJSON(res)
	}
	_, err = fmt.Fprint(env.Stdout, res.Exports())
	return err
}
