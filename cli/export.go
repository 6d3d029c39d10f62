package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/planq-dev/planq/internal/atomicfile"
	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/plural"
	"github.com/planq-dev/planq/mulch"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/readmodel"
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
	var recs []*changelog.Record
	var problems []string
	var project string
	err := withHandle(ctx, env, func(h *readmodel.Handle) error {
		var err error
		project = h.Project.Config.Project
		recs, _, problems, err = h.Records.Learnings(readmodel.LearningFilter{Domains: splitList(opts.domains)})
		return err
	})
	if err != nil {
		return err
	}
	changelog.SortByTime(recs) // the order mulch appends them in
	byDomain := map[string][]*changelog.Record{}
	var domains []string
	for _, r := range recs {
		if byDomain[r.Domain] == nil {
			domains = append(domains, r.Domain)
		}
		byDomain[r.Domain] = append(byDomain[r.Domain], r)
	}
	sort.Strings(domains)
	if opts.format == "markdown" {
		return writeOut(env, opts.out, exportMarkdown(project, domains, byDomain))
	}
	idOf := mulch.IDMap(recs)
	var exported []mulch.Record
	lines := func(d string) ([]byte, error) {
		var b bytes.Buffer
		for _, r := range byDomain[d] {
			m := mulch.FromPlanq(r, idOf)
			exported = append(exported, m)
			data, err := json.Marshal(m)
			if err != nil {
				return nil, fmt.Errorf("failed to encode %s: %w", r.ID, err)
			}
			b.Write(append(data, '\n'))
		}
		return b.Bytes(), nil
	}
	if opts.out == "" {
		if len(domains) > 1 {
			return planqerr.New(planqerr.Invalid, "export", "mulch keeps one file per domain, and there are %d (%s)", len(domains), strings.Join(domains, ", ")).
				WithHint("write them all with --out DIR, or one to stdout with --domain %s", domains[0])
		}
		var data []byte
		if len(domains) == 1 {
			if data, err = lines(domains[0]); err != nil {
				return err
			}
		}
		_, err := env.raw().Write(data) // a file's content, to be read back
		return err
	}
	for _, d := range domains {
		data, err := lines(d)
		if err != nil {
			return err
		}
		if err := writeFile(filepath.Join(opts.out, "expertise", d+".jsonl"), data); err != nil {
			return err
		}
	}
	config := filepath.Join(opts.out, "mulch.config.yaml")
	if _, err := os.Stat(config); os.IsNotExist(err) {
		if err := writeFile(config, mulch.ConfigYAML(domains, exported)); err != nil {
			return err
		}
	}
	env.Log.Info("exported "+plural.Of(len(recs), "learning")+" in "+plural.Of(len(domains), "domain"), "dir", opts.out)
	return reportProblems(problems)
}

func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return planqerr.New(planqerr.Failure, path, "failed to create its directory: %w", err)
	}
	if err := atomicfile.WriteFile(path, data, 0o644); err != nil {
		return planqerr.New(planqerr.Failure, path, "failed to write: %w", err)
	}
	return nil
}

func writeOut(env *Env, path string, data []byte) error {
	if path == "" {
		_, err := env.raw().Write(data) // a file's content, to be read back
		return err
	}
	return writeFile(path, data)
}

// exportMarkdown is the learnings as a page: a section per domain, then per
// type, each learning its first line, its classification and date, the rest
// of its text, and its ID.
func exportMarkdown(project string, domains []string, byDomain map[string][]*changelog.Record) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: expertise\n", project)
	for _, d := range domains {
		fmt.Fprintf(&b, "\n## %s\n", d)
		for _, t := range changelog.KindLearning.Spec().Types {
			var of []*changelog.Record
			for _, r := range byDomain[d] {
				if r.Type == t {
					of = append(of, r)
				}
			}
			if len(of) == 0 {
				continue
			}
			fmt.Fprintf(&b, "\n### %s\n\n", t)
			for _, r := range of {
				fmt.Fprintf(&b, "- **%s** (%s, %s, %s)\n", r.Title(), r.Classification, r.Timestamp.UTC().Format("2006-01-02"), r.ID)
				if _, rest, ok := strings.Cut(strings.TrimSpace(r.Body), "\n"); ok && strings.TrimSpace(rest) != "" {
					fmt.Fprintf(&b, "  %s\n", strings.ReplaceAll(strings.TrimSpace(rest), "\n", "\n  "))
				}
				if r.Resolution != "" {
					fmt.Fprintf(&b, "  Resolution: %s\n", r.Resolution)
				}
			}
		}
	}
	return []byte(b.String())
}
