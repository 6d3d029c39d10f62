package cli

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/prime"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
)

type queryOptions struct {
	domains         []string
	all             bool
	types           []string
	classifications []string
	since           string
	allVersions     bool
	format          string
	json            bool
	asOf            asOfFlag
}

func newQueryCmd(env *Env) *cobra.Command {
	var opts queryOptions
	cmd := &cobra.Command{
		Use:   "query [DOMAIN...] [--all]",
		Short: "Print a domain's learnings, as prime lists them",
		Long: `Print the team's learnings of DOMAIN (or of every domain, with --all): the
current version of each, from global and every agent branch, ranked as prime
ranks them (foundational first, then failures with their resolutions, then
conventions and patterns, then the rest; newest first within each), grouped by
domain, each line ending with the record's path for 'planq get'. For an agent
that wants one domain's expertise before it starts.

--format is prime's: markdown, plain, xml or json (--json is --format json,
{"project","domains":[{"domain","learnings":[...]}]}).`,
		Example: `  planq query db
  planq query auth ci --type failure,convention
  planq query --all --classification foundational --format xml`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.domains = args
			return runQuery(cmd.Context(), env, opts)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&opts.all, "all", false, "every domain")
	f.StringSliceVar(&opts.types, "type", nil, "only learnings of `TYPE`: "+changelog.Join(changelog.KindLearning.Spec().Types, "|"))
	f.StringSliceVar(&opts.classifications, "classification", nil, "only learnings of `CLASS`: "+changelog.Join(changelog.Classifications, "|"))
	f.StringVar(&opts.since, "since", "", "only learnings since `WHEN` (2026-11-01, 2026-11-01T09:30, or a duration like 72h)")
	f.BoolVar(&opts.allVersions, "all-versions", false, "superseded versions too (retracted ones never)")
	f.StringVar(&opts.format, "format", "markdown", "output `FORMAT`: "+strings.Join(prime.Formats, "|"))
	f.BoolVar(&opts.json, "json", false, "print as JSON (--format json)")
	opts.asOf.register(cmd)
	return cmd
}

func runQuery(ctx context.Context, env *Env, opts queryOptions) error {
	for _, d := range opts.domains {
		if err := project.ValidateName("domain", d); err != nil {
			return err
		}
	}
	filter := readmodel.LearningFilter{Domains: opts.domains, AllVersions: opts.allVersions}
	for _, t := range splitList(opts.types) {
		if !slices.Contains(changelog.KindLearning.Spec().Types, changelog.Type(t)) {
			return planqerr.New(planqerr.Invalid, "--type", "%q is no type of learning", t).
				WithHint("use one of %s", changelog.Join(changelog.KindLearning.Spec().Types, ", "))
		}
		filter.Types = append(filter.Types, changelog.Type(t))
	}
	for _, c := range splitList(opts.classifications) {
		if !slices.Contains(changelog.Classifications, changelog.Classification(c)) {
			return planqerr.New(planqerr.Invalid, "--classification", "%q is no classification", c).
				WithHint("use one of %s", changelog.Join(changelog.Classifications, ", "))
		}
		filter.Classifications = append(filter.Classifications, changelog.Classification(c))
	}
	format := opts.format
	if opts.json {
		format = "json"
	}
	if err := prime.CheckFormat(format); err != nil {
		return err
	}
	since, err := readmodel.ParseSince(opts.since, time.Now())
	if err != nil {
		return err
	}
	filter.Since = since
	p, err := env.project()
	if err != nil {
		return err
	}
	return withHandle(ctx, env, func(h *readmodel.Handle) error {
		if err := opts.asOf.pin(ctx, env, h); err != nil {
			return err
		}
		recs, domains, problems, err := h.Records.Learnings(filter)
		if err != nil {
			return err
		}
		if len(opts.domains) == 0 && !opts.all {
			return planqerr.New(planqerr.Invalid, "query", "names no domain").
				WithHint("name one (%s), or give --all", orNoneYet(domains))
		}
		for _, d := range opts.domains {
			if !slices.Contains(domains, d) {
				env.Log.Warn("no learning in this domain", "domain", d, "domains", orNoneYet(domains))
			}
		}
		out, err := prime.Expertise(p.Config.Project, recs, format, readmodel.CheckAnchors(ctx, p.Root, recs))
		if err != nil {
			return err
		}
		env.printf("%s", out)
		return reportProblems(problems)
	})
}

func orNoneYet(domains []string) string {
	if len(domains) == 0 {
		return "none yet"
	}
	return strings.Join(domains, ", ")
}
