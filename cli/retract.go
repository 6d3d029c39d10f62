package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/session"
)

type retractOptions struct {
	writeFlags
	id      string
	because string
	scope   string
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

--scope user retracts a learning or decision of the user layer (see planq user)
instead: one commit on its global; 'planq user push' carries it to your other
machines.

To correct a record rather than retract it, write its new version with
'planq edit ID'.`,
		Example: `  planq retract pq-3f9a1c2e4b --because "the key was real; rotated"
  planq context promote --all   # carry the retraction to global
  planq retract pq-7c0d2e9a1b --scope user --because "I changed my mind"`,
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
	registerRecordScope(cmd, &opts.scope)
	return cmd
}

func runRetract(ctx context.Context, env *Env, opts retractOptions) error {
	return reported(env, opts.writeFlags)(env.service().Retract(ctx, session.RetractInput{Author: opts.author(),
		Scope: session.Scope(opts.scope), ID: opts.id, Reason: opts.because}))
}
