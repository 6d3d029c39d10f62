package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
)

type handoffOptions struct {
	writeFlags
	to string
}

func newHandoffCmd(env *Env) *cobra.Command {
	var opts handoffOptions
	cmd := &cobra.Command{
		Use:   "handoff MESSAGE",
		Short: "Leave a handoff for the next session or another agent (MESSAGE '-' reads stdin)",
		Long: `Leave a handoff: what the next session of this agent (or, with --to, another
agent) should pick up. 'planq context show' shows the latest pending handoff.`,
		Example: `  planq handoff "Continue with the API tests; fixtures are in testdata/api"
  planq handoff "Review the token refresh" --to reviewer`,
		Args: exactArgs(1, "the MESSAGE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runHandoff(cmd.Context(), env, opts, args[0])
		},
	}
	opts.register(cmd)
	cmd.Flags().StringVar(&opts.to, "to", "", "`AGENT` meant to pick it up (default: this agent's next session)")
	return cmd
}

func runHandoff(ctx context.Context, env *Env, opts handoffOptions, arg string) error {
	text, err := messageArg(env, arg)
	if err != nil {
		return err
	}
	if err := requireText("handoff", text); err != nil {
		return err
	}
	if opts.to != "" {
		if err := project.ValidateName("agent", opts.to); err != nil {
			return err
		}
	}
	return writeRecord(ctx, env, opts.writeFlags, &changelog.Record{
		Kind: changelog.KindHandoff, To: opts.to, Status: "pending", Body: text,
	})
}
