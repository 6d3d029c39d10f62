package cli

import (
	"context"

	"github.com/spf13/cobra"
)

type userPruneOptions struct {
	dryRun bool
	json   bool
}

func newUserPruneCmd(env *Env) *cobra.Command {
	var opts userPruneOptions
	cmd := &cobra.Command{
		Use:   "prune",
		Short: "Archive the user layer's learnings that outlived their shelf life",
		Long: `Archive the user layer's current learnings that went unused for longer than
their shelf life, as 'planq prune' does for a project's global: tactical 14
days, observational 30, foundational never. Each gets an archive record in one
commit; nothing leaves history. Preferences you mean to keep for good are best
written --classification foundational.

--dry-run lists what would be archived and writes nothing. --json prints
planq prune's JSON.`,
		Example: "  planq user prune --dry-run",
		Args:    exactArgs(0, "no arguments"),
		RunE:    func(cmd *cobra.Command, _ []string) error { return runUserPrune(cmd.Context(), env, opts) },
	}
	cmd.Flags().BoolVar(&opts.dryRun, "dry-run", false, "list what would be archived; write nothing")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print as JSON")
	return cmd
}

func runUserPrune(ctx context.Context, env *Env, opts userPruneOptions) error {
	res, err := env.service().UserPrune(ctx, opts.dryRun)
	madeUserLayer(env, res.Made)
	if err != nil {
		return err
	}
	if opts.json {
		return env.writeJSON(res.PruneResult)
	}
	reportPruned(env, res.PruneResult, opts.dryRun, prunedLines{none: "nothing in the user layer is past its shelf life", of: " of the user layer",
		hint: "planq user prune"})
	return nil
}
