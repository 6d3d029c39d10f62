package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/workspace"
)

type removeOptions struct {
	name  string
	force bool
	json  bool
}

func newRemoveCmd(env *Env) *cobra.Command {
	var opts removeOptions
	cmd := &cobra.Command{
		Use:   "remove NAME",
		Short: "Unmount an agent and remove its workspace, keeping its branch",
		Long: `Remove agent NAME from its workspace:

  1. commit any pending state in its .planq/agent (nothing is ever lost),
  2. remove the state worktree,
  3. remove the code workspace if planq created it (a --here checkout stays).

It refuses while the code workspace has uncommitted changes, unless --force.
The branch agent-NAME stays: 'planq create NAME --resume' mounts it again.`,
		Args: exactArgs(1, "the agent's NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.name = args[0]
			return runRemove(cmd.Context(), env, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.force, "force", false, "remove the code workspace even with uncommitted changes (they are lost)")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the result as JSON")
	return cmd
}

func runRemove(ctx context.Context, env *Env, opts removeOptions) error {
	p, err := env.project()
	if err != nil {
		return err
	}
	res, err := workspace.Remove(ctx, p, opts.name, opts.force)
	if res.Saved != "" {
		env.Log.Info("committed pending agent state", "agent", opts.name, "commit", short(res.Saved))
	}
	for _, problem := range res.Problems {
		env.Log.Warn("malformed record committed as it was", "problem", problem)
	}
	if err != nil {
		return err
	}
	if res.AgentDir != "" {
		env.Log.Info("removed agent worktree", "path", res.AgentDir, "branch", "agent-"+opts.name+" (kept)")
	} else {
		env.Log.Info("agent was not mounted; nothing to remove", "agent", opts.name)
	}
	if res.Workspace != "" {
		env.Log.Info("removed code workspace", "path", res.Workspace)
	}
	if res.RawNotes > 0 {
		env.Log.Info(countOf(res.RawNotes, "raw note")+" wait for curation into the instruction files", "hint", "planq curate")
	}
	if opts.json {
		return env.writeJSON(res)
	}
	return nil
}
