package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/agent"
)

type retractOptions struct {
	writeFlags
	id      string
	because string
}

func newRetractCmd(env *Env) *cobra.Command {
	var opts retractOptions
	cmd := &cobra.Command{
		Use:   "retract ID",
		Short: "Retract a record: a tombstone that supersedes it",
		Long: `Retract record ID: write a tombstone, a record of its kind that supersedes it
and says why. Readers (context, prime, log, search) stop showing it, promote
carries the retraction to global, and state push no longer refuses what the
record held. Nothing is deleted: git keeps the record's history.

To correct a record rather than retract it, write its new version with
--supersedes ID ('planq learn' and 'planq decide').`,
		Example: `  planq retract pq-3f9a1c2e4b --because "the key was real; rotated"
  planq context promote --all   # carry the retraction to global`,
		Args: exactArgs(1, "the record's ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.id = args[0]
			return runRetract(cmd.Context(), env, opts)
		},
	}
	opts.register(cmd)
	cmd.Flags().StringVar(&opts.because, "because", "", "why it is retracted (`REASON`)")
	cmd.Flags().StringVar(&opts.because, "reason", "", "the same as --because (`REASON`)")
	cmd.MarkFlagsMutuallyExclusive("because", "reason")
	return cmd
}

func runRetract(ctx context.Context, env *Env, opts retractOptions) error {
	return writeAs(ctx, env, opts.writeFlags, func(a *agent.Agent, o agent.WriteOptions) (agent.Written, error) {
		return a.Retract(ctx, opts.id, opts.because, o)
	})
}
