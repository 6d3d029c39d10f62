package cli

import (
	"context"

	"github.com/spf13/cobra"
)

func newPlanCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "plan",
		Short: "The team's plan: show it, or (a lead) set it",
		Long: `The plan that drives the team's work lives in global's plan.md. Every agent's
prime shows it; a lead sets it.`,
		Args: exactArgs(0, "a subcommand: show or set"),
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newPlanShowCmd(env), newPlanSetCmd(env))
	return cmd
}

type planShowOptions struct {
	json bool
}

func newPlanShowCmd(env *Env) *cobra.Command {
	var opts planShowOptions
	cmd := &cobra.Command{
		Use:   "show",
		Short: "Print the team's plan",
		Long:  `Print global's plan.md. --json prints {"plan": "..."}.`,
		Args:  exactArgs(0, "no arguments"),
		RunE:  func(cmd *cobra.Command, _ []string) error { return runPlanShow(cmd.Context(), env, opts) },
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print as JSON")
	return cmd
}

func runPlanShow(ctx context.Context, env *Env, opts planShowOptions) error {
	plan, err := env.service().Plan(ctx)
	if err != nil {
		return err
	}
	if opts.json {
		return env.writeJSON(map[string]string{"plan": plan})
	}
	if plan == "" {
		env.Log.Info("no plan yet", "hint", `planq plan set "..."`)
		return nil
	}
	env.printf("%s", plan)
	return nil
}

type planSetOptions struct {
	text        string
	allowSecret bool
}

func newPlanSetCmd(env *Env) *cobra.Command {
	var opts planSetOptions
	cmd := &cobra.Command{
		Use:   "set PLAN",
		Short: "Replace the team's plan (PLAN '-' reads stdin)",
		Long: `Replace global's plan.md with PLAN, in one commit on global. Every agent's
next prime shows it; 'planq state push' shares it with the team.`,
		Example: `  planq plan set "1. Token refresh  2. Rate limits  3. Audit log"
  planq plan set - < plan.md`,
		Args: exactArgs(1, "the PLAN"),
		RunE: func(cmd *cobra.Command, args []string) error {
			text, err := messageArg(env, args[0])
			if err != nil {
				return err
			}
			opts.text = text
			return runPlanSet(cmd.Context(), env, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.allowSecret, "allow-secret", false, "store text even if it looks like a credential")
	return cmd
}

func runPlanSet(ctx context.Context, env *Env, opts planSetOptions) error {
	commit, err := env.service().SetPlan(ctx, opts.text, opts.allowSecret)
	if err != nil {
		return err
	}
	env.Log.Info("set the plan", "branch", "global", "file", "plan.md", "commit", short(commit))
	return nil
}
