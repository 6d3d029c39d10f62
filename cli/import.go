package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
)

type importOptions struct {
	writeFlags
	dryRun bool
	strict bool
	source string
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
resolution (one mulch left empty reads "(none: ...)"); its files become anchors;
supersedes and relates_to become supersedes and depends_on when they name another
record of the import. What planq has no field for (outcomes, owner, status,
directory anchors, evidence beyond commit, issue and file) is kept as tags
"mulch:<field>=<value>", so 'planq export --format jsonl' gives back what mulch
wrote. A type the project declares under custom_types in mulch.config.yaml
becomes the planq type it extends (or, extending none, the nearest by its
fields), and keeps its own as tags "mulch:type=<type>" and
"mulch:field.<field>=<value>", which 'planq show' shows. The records of mulch's
archive (archive/<domain>.jsonl) are imported archived, as 'planq prune'
archives: 'planq archive list' and 'planq restore' know them once promoted.

Each learning's ID is drawn from its origin, mulch:<source>:<mulch id> (source:
--source, default this project's name for its own .mulch, else the name of the
directory holding .mulch), so the same mulch id from two projects makes two
learnings, a name mulch used twice (its id repeats) makes mulch:<source>:<id>#2,
and importing again, by any agent on any machine, adds nothing: the records that
are there already are reported as present (also those an older planq imported
as mulch:<id>). A line that cannot be imported (broken, not UTF-8, longer than
256 KiB, of a type or with a field mulch does not take, or holding what planq
refuses to store) is reported on stderr with its file, line and why, and the
others are imported; so is a file that is no regular file inside the mulch
directory (a FIFO, a link to another project's expertise), named whole ("line"
0 in --json). With --strict nothing is imported and the exit code is 6.
Promote the learnings to share them.

--json prints {"dir","source","records":[{"id","origin","file","line","domain","type","mulch_type","archived","status"}],"refused":[{"file","line","reason"}],"unlinked":[{"file","line","id","link","supersedes","problem"}],"commit"};
status is imported, present, or archived (imported before, archived in mulch
since: this import archives it).`,
		Example: "  planq import mulch\n  planq import mulch ../other/.mulch --dry-run\n  planq import mulch ../other --source other --strict\n  planq context promote --all",
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
	cmd.Flags().BoolVar(&opts.strict, "strict", false, "import nothing if a line cannot be imported (exit 6)")
	cmd.Flags().StringVar(&opts.source, "source", "", "name the project the records come from, in their origins (`NAME`)")
	return cmd
}

func runImport(ctx context.Context, env *Env, opts importOptions, dir string) error {
	res, err := env.service().ImportMulch(ctx, session.ImportInput{Agent: opts.agent, Dir: dir, Source: opts.source,
		DryRun: opts.dryRun, Strict: opts.strict, AllowSecret: opts.allowSecret})
	for _, r := range res.Refused {
		env.Log.Warn(r.String())
	}
	for _, u := range res.Unlinked {
		env.Log.Warn(u.String())
	}
	if err != nil {
		if opts.json && res.Agent != "" && planqerr.KindOf(err) == planqerr.Corrupt { // the import ran: its JSON says why
			if jerr := env.writeJSON(res); jerr != nil {
				return jerr
			}
		}
		return err
	}
	imported, present, archived := res.Counts()
	counts := fmt.Sprintf("%s, %d present already", countOf(imported, "record"), present)
	if archived > 0 {
		counts += fmt.Sprintf(", %d archived since an earlier import", archived)
	}
	counts += notImported(res)
	switch {
	case opts.dryRun:
		env.Log.Info("would import "+counts+"; nothing written", "dir", res.Dir, "source", res.Source)
	case res.Commit != "":
		env.Log.Info("imported "+counts, "agent", res.Agent, "commit", short(res.Commit))
	default:
		what := "all " + countOf(present, "record") + " are present already"
		if present == 1 {
			what = "its one record is present already"
		}
		env.Log.Info("nothing new: "+what+notImported(res), "dir", res.Dir)
	}
	if opts.json {
		return env.writeJSON(res)
	}
	return printImported(env, res)
}

// printImported lists the records an import read, a line each.
func printImported(env *Env, res session.Imported) error {
	tw := newTable(env.Stdout)
	fmt.Fprintln(tw, "ID\tORIGIN\tDOMAIN\tTYPE\tSTATUS")
	for _, r := range res.Records {
		typ := string(r.Type)
		if r.MulchType != typ {
			typ += "(" + r.MulchType + ")"
		}
		status := r.Status
		if r.Archived && status == "imported" {
			status = "imported-archived"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, r.Origin, r.Domain, typ, status)
	}
	return tw.Flush()
}

// notImported counts the lines refused, and the files not read at all
// (a FIFO, a link out of the mulch directory).
func notImported(res session.Imported) string {
	lines, files := res.RefusedCounts()
	var parts []string
	if lines > 0 {
		parts = append(parts, countOf(lines, "line"))
	}
	if files > 0 {
		parts = append(parts, countOf(files, "file"))
	}
	if len(parts) == 0 {
		return ""
	}
	return "; " + strings.Join(parts, " and ") + " not imported (listed above)"
}
