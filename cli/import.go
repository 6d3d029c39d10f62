package cli

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/lifecycle"
)

type importOptions struct {
	writeFlags
	dryRun bool
}

func newImportCmd(env *Env) *cobra.Command {
	var opts importOptions
	cmd := &cobra.Command{
		Use:   "import mulch [DIR]",
		Short: "Import the expertise of a mulch directory as learnings",
		Long: `Import a mulch directory (DIR: a .mulch directory or the one holding it; default
the code checkout's .mulch) into the agent's branch, in one commit: each record of
expertise/<domain>.jsonl becomes a learning of that domain, with mulch's type,
classification, time, tags and evidence. A pattern's, reference's or guide's name
is its subject and first line, a decision's title likewise; a failure keeps its
resolution; its files become anchors; supersedes and relates_to become
supersedes and depends_on when they name a record of the import. What planq has
no field for (outcomes, owner, status, directory anchors, evidence beyond
commit, issue and file) is kept as tags "mulch:<field>=<value>", so 'planq
export --format jsonl' gives back what mulch wrote.

Each learning's ID is drawn from its mulch id, so importing again, by any agent
on any machine, adds nothing: the records that are there already are reported
as present. Every line is read before anything is written: a broken line is an
error naming its file and line, and nothing is imported. Promote the learnings
to share them.

--json prints {"dir","records":[{"id","origin","domain","type","status"}],"commit"}.`,
		Example: "  planq import mulch\n  planq import mulch ../other/.mulch --dry-run\n  planq context promote --all",
		Args:    rangeArgs(1, 2, "mulch, and the directory"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if args[0] != "mulch" {
				return usagef("import: %q is not a format planq imports (it imports: mulch)", args[0])
			}
			dir := ""
			if len(args) == 2 {
				dir = args[1]
			}
			return runImport(cmd.Context(), env, opts, dir)
		},
	}
	opts.register(cmd)
	cmd.Flags().BoolVar(&opts.dryRun, "dry-run", false, "show what would be imported; write nothing")
	return cmd
}

func runImport(ctx context.Context, env *Env, opts importOptions, dir string) error {
	store, a, err := env.openAgent(ctx, opts.agent)
	if err != nil {
		return err
	}
	defer env.closeStore(store)
	if dir == "" {
		dir = filepath.Join(store.Project.Root, ".mulch")
	}
	res, err := lifecycle.ImportMulch(ctx, a, dir, store.Project.Root, opts.dryRun, agent.WriteOptions{AllowSecret: opts.allowSecret})
	if err != nil {
		return err
	}
	imported, present := res.Counts()
	switch {
	case opts.dryRun:
		env.Log.Info(fmt.Sprintf("would import %d records, %d present already; nothing written", imported, present), "dir", res.Dir)
	case res.Commit != "":
		env.Log.Info(fmt.Sprintf("imported %d records, %d present already", imported, present), "agent", a.Name, "commit", short(res.Commit))
	default:
		env.Log.Info(fmt.Sprintf("nothing new: all %d records are present already", present), "dir", res.Dir)
	}
	if opts.json {
		return env.writeJSON(res)
	}
	tw := newTable(env.Stdout)
	fmt.Fprintln(tw, "ID\tORIGIN\tDOMAIN\tTYPE\tSTATUS")
	for _, r := range res.Records {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, r.Origin, r.Domain, r.Type, r.Status)
	}
	return tw.Flush()
}
