package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/session"
)

func newContextCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "context",
		Short: "Show or set what the agent works on; promote it into global",
		Args:  exactArgs(0, "a subcommand: show or set"),
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newContextShowCmd(env), newContextSetCmd(env), newPromoteCmd(env))
	return cmd
}

type contextShowOptions struct {
	agent string
	json  bool
	asOf  asOfFlag
}

func newContextShowCmd(env *Env) *cobra.Command {
	var opts contextShowOptions
	cmd := &cobra.Command{
		Use:   "show",
		Short: "Show the summary an agent needs to pick up its work",
		Long: `Show the agent's current focus, scratch notes, its last 5 log entries, active
decisions, its recent learnings, the pending handoff and the code branch.

--json prints {"project","agent","branch","agent_dir"?,"code":{"branch"?,"commit"?},
"focus","scratch","branch_context"?:{"branch","created_at","updated_at","agent",
"status","body"},"recent_log":[record],"decisions":[record],"learnings":[record],
"handoff"?:record,"team_learnings":[record],"team_decisions":[record],"problems"?}:
each record as 'planq show --json' prints it; a key marked ? is there only when set.`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error { return runContextShow(cmd.Context(), env, opts) },
	}
	cmd.Flags().StringVar(&opts.agent, "agent", "", "show agent `NAME`'s context")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print as JSON")
	opts.asOf.register(cmd)
	return cmd
}

func runContextShow(ctx context.Context, env *Env, opts contextShowOptions) error {
	s, at, err := env.service().Context(ctx, session.ContextInput{Agent: opts.agent, AsOf: opts.asOf.spec})
	opts.asOf.report(env, at)
	if err != nil {
		return err
	}
	if opts.json {
		err = env.writeJSON(s)
	} else {
		_, err = fmt.Fprint(env.Stdout, s.Markdown())
	}
	if err != nil {
		return err
	}
	return reportProblems(s.Problems)
}

type contextSetOptions struct {
	writeFlags
}

func newContextSetCmd(env *Env) *cobra.Command {
	var opts contextSetOptions
	cmd := &cobra.Command{
		Use:     "set FOCUS",
		Short:   "Set the agent's current focus (context.md)",
		Example: `  planq context set "Token refresh on 401"`,
		Args:    exactArgs(1, "the FOCUS"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runContextSet(cmd.Context(), env, opts, args[0])
		},
	}
	opts.register(cmd)
	return cmd
}

func runContextSet(ctx context.Context, env *Env, opts contextSetOptions, focus string) error {
	return reported(env, opts.writeFlags)(env.service().SetFocus(ctx, session.FocusInput{Author: opts.author(), Focus: focus}))
}
