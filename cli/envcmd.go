package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
)

type envOptions struct {
	json bool
}

func newEnvCmd(env *Env) *cobra.Command {
	var opts envOptions
	cmd := &cobra.Command{
		Use:   "env [NAME]",
		Short: "Print an agent's environment as shell exports",
		Long: `Print the environment of agent NAME (default: the one mounted here) as export
lines, for: eval "$(planq env NAME)"

Variables: PLANQ_PROJECT_NAME, PLANQ_STATE_REPO, PLANQ_AGENT_NAME,
PLANQ_AGENT_BRANCH, PLANQ_AGENT_DIR, PLANQ_WORKSPACE.`,
		Args: maxArgs(1, "one agent NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := ""
			if len(args) == 1 {
				name = args[0]
			}
			return runEnv(cmd.Context(), env, opts, name)
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print as JSON")
	return cmd
}

func runEnv(ctx context.Context, env *Env, opts envOptions, name string) error {
	e, err := env.service().Env(ctx, name)
	if err != nil {
		return err
	}
	if opts.json {
		return env.writeJSON(e)
	}
	_, err = fmt.Fprint(env.Stdout, e.Exports())
	return err
}
