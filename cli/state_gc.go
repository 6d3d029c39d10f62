package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/session"
)

type gcOptions struct {
	dryRun bool
	json   bool
}

func newGCCmd(env *Env) *cobra.Command {
	var opts gcOptions
	cmd := &cobra.Command{
		Use:   "gc",
		Short: "Delete merged agent branches (kept in an archive) and tidy the repository",
		Long: `Delete the agent branches that global already holds (their tip is an ancestor
of global, checked with merge-base) and whose worktree is gone. Each is first
kept under refs/planq/archive/<agent>/<time>; 'planq state restore NAME' brings
it back. Then stale worktree registrations are pruned and git's maintenance runs,
never pruning objects younger than two weeks.

--json prints {"archived":[{"agent","commit","archive"}],"kept":[agent]}.`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error { return runGC(cmd.Context(), env, opts) },
	}
	cmd.Flags().BoolVar(&opts.dryRun, "dry-run", false, "show what would be deleted")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the result as JSON")
	return cmd
}

func runGC(ctx context.Context, env *Env, opts gcOptions) error {
	done := env.progress(opts.json, "collecting merged agent branches and tidying the repository")
	res, err := env.service().GC(ctx, opts.dryRun)
	done()
	if err != nil {
		return err
	}
	verb := "archived and deleted"
	if opts.dryRun {
		verb = "would archive and delete"
	}
	for _, a := range res.Archived {
		env.Log.Info(verb, "branch", session.AgentBranch(a.Agent), "archive", a.Ref)
	}
	for _, k := range res.Kept {
		env.Log.Info("merged but mounted; kept", "agent", k)
	}
	if len(res.Archived) == 0 {
		env.Log.Info("nothing to collect: no agent branch is both merged into global and unmounted")
	}
	if opts.json {
		return env.writeJSON(res)
	}
	for _, a := range res.Archived {
		env.printf("%s\t%s\n", a.Agent, a.Ref)
	}
	return nil
}
