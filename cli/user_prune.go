package cli

import (
	"context"
	"time"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/lifecycle"
	"github.com/planq-dev/planq/userlayer"
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
	l, err := openUserLayer(ctx, env)
	if err != nil {
		return err
	}
	defer func() { _ = l.Close() }() // the cache is only a shortcut
	res, err := lifecycle.Prune(ctx, l.Store, lifecycle.PruneOptions{Now: time.Now(), DryRun: opts.dryRun, Writer: userlayer.Writer})
	if err != nil {
		return err
	}
	if opts.json {
		return env.writeJSON(res)
	}
	reportPruned(env, res, opts.dryRun, prunedLines{none: "nothing in the user layer is past its shelf life", of: " of the user layer",
		hint: "planq user prune"})
	return nil
}
