package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/session"
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
	cmd.AddCommand(newHandoffAckCmd(env))
	return cmd
}

func newHandoffAckCmd(env *Env) *cobra.Command {
	var flags writeFlags
	cmd := &cobra.Command{
		Use:   "ack [ID]",
		Short: "Acknowledge a pending handoff once picked up",
		Long: `Mark the handoff ID (default: the one pending for this agent) as picked up:
a new version of it with status acknowledged. Until then every session start
shows it, so a handoff is never lost to a session that started twice.`,
		Args: maxArgs(1, "one handoff ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			id := ""
			if len(args) == 1 {
				id = args[0]
			}
			return reported(env, flags)(env.service().AckHandoff(cmd.Context(), flags.author(), id))
		},
	}
	flags.register(cmd)
	return cmd
}

func runHandoff(ctx context.Context, env *Env, opts handoffOptions, arg string) error {
	text, err := messageArg(env, arg)
	if err != nil {
		return err
	}
	return reported(env, opts.writeFlags)(env.service().Handoff(ctx, session.HandoffInput{
		HandoffInput: changelog.HandoffInput{Text: text, To: opts.to}, Author: opts.author()}))
}
