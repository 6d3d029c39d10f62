package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/changelog"
)

func newArchiveCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "archive",
		Short: "Show the learnings prune archived",
		Args:  exactArgs(0, "a subcommand: list"),
	}
	var asJSON bool
	list := &cobra.Command{
		Use:   "list",
		Short: "List the archived learnings, newest first",
		Long: `List the learnings 'planq prune' archived on global and no 'planq restore' brought
back, newest first: the learning's ID, domain, type, classification, when it
was written and archived, its title, and why.

--json prints [{"id","kind","domain","type","classification","title","written",
"last_used"?,"reason","marker","archived_at"}].`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error { return runArchiveList(cmd.Context(), env, asJSON) },
	}
	list.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	cmd.AddCommand(list)
	return cmd
}

func runArchiveList(ctx context.Context, env *Env, asJSON bool) error {
	archived, err := env.service().ArchivedLearnings(ctx)
	if err != nil {
		return err
	}
	if asJSON {
		return env.writeJSON(archived)
	}
	if len(archived) == 0 {
		env.Log.Info("nothing is archived")
		return nil
	}
	tw := newTable(env.Stdout)
	fmt.Fprintln(tw, "ID\tDOMAIN\tTYPE\tCLASSIFICATION\tWRITTEN\tARCHIVED\tTITLE\tWHY")
	for _, a := range archived {
		at := "-"
		if a.ArchivedAt != nil {
			at = a.ArchivedAt.Local().Format(time.DateOnly)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", a.ID, a.Domain, a.Type, a.Classification, a.Written.Local().Format(time.DateOnly), at,
			changelog.Shorten(a.Title, 60), a.Reason)
	}
	return tw.Flush()
}
