package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/changelog"
)

type decideOptions struct {
	writeFlags
	over       []string
	because    string
	supersedes string
	subject    string
}

func newDecideCmd(env *Env) *cobra.Command {
	var opts decideOptions
	cmd := &cobra.Command{
		Use:     "decide DECISION",
		Short:   "Record a decision, the alternatives and the rationale",
		Example: `  planq decide "Use RS256" --over HS256,session --because "public-key verification"`,
		Args:    exactArgs(1, "the DECISION"),
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
	return cmd
}

func runDecide(ctx context.Context, env *Env, opts decideOptions, decision string) error {
	rec, err := changelog.NewDecision(changelog.DecisionInput{Decision: decision, Alternatives: splitList(opts.over),
		Rationale: opts.because, Supersedes: opts.supersedes, Subject: opts.subject})
	if err != nil {
		return err
	}
	return writeRecord(ctx, env, opts.writeFlags, rec)
}
