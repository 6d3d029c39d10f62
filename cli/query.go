package cli

import (
	"context"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
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
	f.StringVar(&opts.since, "since", "", "only learnings written since `WHEN`: "+sinceForms)
	f.BoolVar(&opts.allVersions, "all-versions", false, "superseded versions too (retracted ones never)")
	f.StringVar(&opts.format, "format", "markdown", "output `FORMAT`: "+strings.Join(session.Formats, "|"))
	f.BoolVar(&opts.json, "json", false, "print as JSON (--format json)")
	opts.asOf.register(cmd)
	return cmd
}

func runQuery(ctx context.Context, env *Env, opts queryOptions) error {
	in, err := opts.input()
	if err != nil {
		return err
	}
	ex, err := env.service().Query(ctx, in)
	opts.asOf.report(env, ex.AsOf)
	if err != nil {
		return err
	}
	if ex.Unnamed {
		return planqerr.New(planqerr.Invalid, "query", "names no domain").
			WithHint("name one (%s), or give --all", orNoneYet(ex.Domains))
	}
	for _, d := range opts.domains {
		if !slices.Contains(ex.Domains, d) {
			env.Log.Warn("no learning in this domain", "domain", d, "domains", orNoneYet(ex.Domains))
		}
	}
	env.printf("%s", ex.Text)
	return reportProblems(ex.Problems)
}

// input is the query the flags ask for.
func (opts queryOptions) input() (session.QueryInput, error) {
	in := session.QueryInput{Domains: opts.domains, AllVersions: opts.allVersions, All: opts.all, Since: opts.since,
		AsOf: opts.asOf.spec, Format: opts.format}
	if opts.json {
		in.Format = "json"
	}
	for _, t := range splitList(opts.types) {
		if !slices.Contains(changelog.KindLearning.Spec().Types, changelog.Type(t)) {
			return in, planqerr.New(planqerr.Invalid, "--type", "%q is no type of learning", t).
				WithHint("use one of %s", changelog.Join(changelog.KindLearning.Spec().Types, ", "))
		}
		in.Types = append(in.Types, changelog.Type(t))
	}
	for _, c := range splitList(opts.classifications) {
		if !slices.Contains(changelog.Classifications, changelog.Classification(c)) {
			return in, planqerr.New(planqerr.Invalid, "--classification", "%q is no classification", c).
				WithHint("use one of %s", changelog.Join(changelog.Classifications, ", "))
		}
		in.Classifications = append(in.Classifications, changelog.Classification(c))
	}
	return in, nil
}

func orNoneYet(domains []string) string {
	if len(domains) == 0 {
		return "none yet"
	}
	return strings.Join(domains, ", ")
}
