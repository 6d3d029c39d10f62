package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/session"
)

type decideOptions struct {
	writeFlags
	over       []string
	because    string
	supersedes string
	subject    string
	scope      string
}

func newDecideCmd(env *Env) *cobra.Command {
	var opts decideOptions
	cmd := &cobra.Command{
		Use:   "decide DECISION",
		Short: "Record a decision, the alternatives and the rationale",
		Long: `Record a decision: what was chosen, the alternatives considered and rejected,
and why. --scope user records it in the user layer instead (see planq user):
yours across projects; it works outside any project too.`,
		Example: `  planq decide "Use RS256" --over HS256,session --because "public-key verification"
  planq decide "Use ripgrep over grep" --because "faster, respects .gitignore" --scope user`,
		Args: exactArgs(1, "the DECISION"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDecide(cmd.Context(), env, opts, args[0])
		},
	}
	opts.register(cmd)
	f := cmd.Flags()
	f.StringSliceVar(&opts.over, "over", nil, "`ALTERNATIVES` considered and rejected (comma-separated)")
	f.StringVar(&opts.because, "because", "", "the `RATIONALE` (required)")
	f.StringVar(&opts.supersedes, "supersedes", "", "`ID` of the decision this one replaces")
	f.StringVar(&opts.subject, "subject", "", "what it decides, as a short `KEY` like jwt-signing (default: the decision text); promote flags two decisions with one subject and different content as disputed")
	registerWriteScope(cmd, &opts.scope)
	return cmd
}

func runDecide(ctx context.Context, env *Env, opts decideOptions, decision string) error {
	decided, err := env.service().Decide(ctx, session.DecideInput{Author: opts.author(), Scope: session.Scope(opts.scope),
		DecisionInput: changelog.DecisionInput{Decision: decision, Alternatives: splitList(opts.over),
			Rationale: opts.because, Supersedes: opts.supersedes, Subject: opts.subject}})
	return reportRecorded(env, opts.writeFlags, decided, err)
}
