package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/session"
)

type restoreOptions struct {
	name string
}

func newRestoreCmd(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:   "restore NAME",
		Short: "Bring back an agent branch that gc archived",
		Long:  "Recreate agent-NAME from its latest archive; then 'planq create NAME --resume' mounts it.",
		Args:  exactArgs(1, "the agent's NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRestore(cmd.Context(), env, restoreOptions{name: args[0]})
		},
	}
}

func runRestore(ctx context.Context, env *Env, opts restoreOptions) error {
	a, err := env.service().RestoreAgent(ctx, opts.name)
	if err != nil {
		return err
	}
	env.Log.Info("restored", "branch", session.AgentBranch(a.Agent), "commit", short(a.Commit), "from", a.Ref, "next", "planq create "+a.Agent+" --resume")
	return nil
}
