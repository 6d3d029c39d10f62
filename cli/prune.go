package cli

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/plural"
	"github.com/planq-dev/planq/session"
)

type pruneOptions struct {
	dryRun bool
	stale  bool
	json   bool
}

func newPruneCmd(env *Env) *cobra.Command {
	var opts pruneOptions
	cmd := &cobra.Command{
		Use:   "prune",
		Short: "Archive the team's learnings that outlived their shelf life",
		Long: fmt.Sprintf(`Archive global's current learnings that went unused for longer than their shelf
life: tactical %d days, observational %d, foundational never, or what
shelf_life in .planq/config says. A learning is used when search, get or prime
shows it to an agent (and promote brings those uses to global); an edit or a
revalidation starts its shelf life afresh.

Each archived learning gets an archive record (a tombstone marked archived that
supersedes it), all in one commit on global whose message lists them: no reader
on any branch shows them any more. Nothing is deleted: 'planq archive list'
shows them, 'planq restore ID' brings one back. Learnings only an agent holds
are not pruned: promote them first. With --stale, learnings whose anchored code
files (learn --file) are all gone from the code are archived too.

--dry-run lists what would be archived and writes nothing. --json prints
{"archived":[{"id","kind","domain","type","classification","title","written",
"last_used"?,"reason","marker","archived_at"}],"commit"?}.`,
			int(session.ShelfLife["tactical"].Hours()/24), int(session.ShelfLife["observational"].Hours()/24)),
		Example: "  planq prune --dry-run\n  planq prune\n  planq archive list",
		Args:    exactArgs(0, "no arguments"),
		RunE:    func(cmd *cobra.Command, _ []string) error { return runPrune(cmd.Context(), env, opts) },
	}
	cmd.Flags().BoolVar(&opts.dryRun, "dry-run", false, "list what would be archived; write nothing")
	cmd.Flags().BoolVar(&opts.stale, "stale", false, "also archive learnings whose anchored code files are all gone")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print as JSON")
	return cmd
}

func runPrune(ctx context.Context, env *Env, opts pruneOptions) error {
	res, err := env.service().Prune(ctx, session.PruneInput{DryRun: opts.dryRun, Stale: opts.stale})
	if err != nil {
		return err
	}
	if opts.json {
		return env.writeJSON(res)
	}
	reportPruned(env, res.PruneResult, opts.dryRun, prunedLines{none: "nothing is past its shelf life", hint: "planq prune",
		at: []any{"branch", session.GlobalBranch}})
	logKnowledge(env, res.Knowledge)
	return nil
}

// prunedLines are the words of what prune logs on stderr, for a project's
// global or the user layer.
type prunedLines struct {
	none string // when nothing is past its shelf life
	of   string // after the count of learnings: whose they are ("" for global's)
	hint string // the command that archives what a dry run lists
	at   []any  // what the archive commit's line names before the commit
}

// reportPruned prints the learnings prune archived (or, on a dry run,
// would) and logs their count.
func reportPruned(env *Env, res session.PruneResult, dryRun bool, lines prunedLines) {
	printArchived(env, res.Archived)
	learnings := plural.Of(len(res.Archived), "learning") + lines.of
	switch {
	case len(res.Archived) == 0:
		env.Log.Info(lines.none)
	case dryRun:
		env.Log.Info(fmt.Sprintf("would archive %s; nothing written", learnings), "hint", lines.hint)
	default:
		env.Log.Info("archived "+learnings, slices.Concat(lines.at, []any{"commit", short(res.Commit)})...)
	}
}

func printArchived(env *Env, archived []session.ArchivedLearning) {
	if len(archived) == 0 {
		return
	}
	tw := newTable(env.Stdout)
	fmt.Fprintln(tw, "ID\tDOMAIN\tCLASSIFICATION\tWRITTEN\tLAST USED\tTITLE\tWHY")
	for _, a := range archived {
		used := "-"
		if a.LastUsed != nil {
			used = a.LastUsed.Local().Format(time.DateOnly)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", a.ID, a.Domain, a.Classification, a.Written.Local().Format(time.DateOnly), used,
			changelog.Shorten(a.Title, 60), a.Reason)
	}
	_ = tw.Flush()
}
