package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/internal/plural"
	"github.com/planq-dev/planq/session"
)

type exportOptions struct {
	format  string
	domains []string
	out     string
}

func newExportCmd(env *Env) *cobra.Command {
	var opts exportOptions
	cmd := &cobra.Command{
		Use:   "export --format jsonl|markdown",
		Short: "Export the team's current learnings as mulch JSONL or Markdown",
		Long: `Export the current learnings of global and every agent branch (each once; of
--domain only, if given).

jsonl writes mulch's own records, one JSON object per line: a learning imported
from mulch gives back the record mulch wrote (its id, fields and the extras kept
as mulch: tags); one planq made gets a mulch id drawn from its own. mulch keeps
one file per domain: with --out DIR, planq writes DIR/expertise/<domain>.jsonl
(and DIR/mulch.config.yaml naming the domains and the custom types the records
are of, if there is none), a directory mulch reads and 'planq import mulch DIR'
takes back; without --out, one domain's lines go to stdout.

markdown writes a page per domain, by type, for people (stdout, or the file
--out names).`,
		Example: "  planq export --format jsonl --out .mulch\n  planq export --format jsonl --domain auth > auth.jsonl\n  planq export --format markdown --out EXPERTISE.md",
		Args:    exactArgs(0, "no arguments"),
		RunE:    func(cmd *cobra.Command, _ []string) error { return runExport(cmd.Context(), env, opts) },
	}
	cmd.Flags().StringVar(&opts.format, "format", "", "`FORMAT`: jsonl (mulch's records) or markdown (required)")
	cmd.Flags().StringSliceVar(&opts.domains, "domain", nil, "only learnings of `DOMAIN` (repeat or comma-separate)")
	cmd.Flags().StringVar(&opts.out, "out", "", "write to `PATH`: a directory for jsonl, a file for markdown")
	return cmd
}

func runExport(ctx context.Context, env *Env, opts exportOptions) error {
	if opts.format != "jsonl" && opts.format != "markdown" {
		return usagef("export: --format must be jsonl or markdown, not %q", opts.format)
	}
	ex, err := env.service().Export(ctx, session.ExportInput{Format: opts.format, Domains: splitList(opts.domains), Out: opts.out})
	if err != nil {
		return err
	}
	if opts.out == "" {
		_, err := env.raw().Write(ex.Data) // a file's content, to be read back
		return err
	}
	if opts.format == "markdown" {
		return nil
	}
	env.Log.Info("exported "+plural.Of(ex.Learnings, "learning")+" in "+plural.Of(len(ex.Domains), "domain"), "dir", opts.out)
	return reportProblems(ex.Problems)
}
