package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/session"
)

func newRestoreRecordCmd(env *Env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "restore ID",
		Short: "Bring back a learning prune archived",
		Long: `Bring back learning ID, which 'planq prune' archived (its archive record's ID
works too): a new version of it on global, in one commit, that supersedes the
archive record, so readers show it again and its shelf life starts afresh.
Prints the new version's ID; 'planq show ID --history' shows all three.

(An archived agent branch comes back with 'planq state restore NAME'.)

--json prints {"id","marker","restored","commit"}.`,
		Example: "  planq archive list\n  planq restore pq-3f9a1c2e4b",
		Args:    exactArgs(1, "the archived learning's ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRestoreRecord(cmd.Context(), env, args[0], asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return cmd
}

func runRestoreRecord(ctx context.Context, env *Env, id string, asJSON bool) error {
	r, err := env.service().Restore(ctx, id)
	if err != nil {
		return err
	}
	env.Log.Info("restored "+r.ID+" as "+r.Restored, "branch", session.GlobalBranch, "commit", short(r.Commit))
	logKnowledge(env, r.Knowledge)
	if asJSON {
		return env.writeJSON(r)
	}
	env.printf("%s\n", r.Restored)
	return nil
}
