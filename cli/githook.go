package cli

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/hooks"
)

// gitHookBudget bounds a git hook handler: a checkout must never wait on planq.
const gitHookBudget = 2 * time.Second

func newGitHookCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "githook",
		Short: "Install, remove or run planq's git hooks in the code repository",
		Long: `planq's git hooks are opt-in. post-checkout prints the context of the branch
just checked out (see 'planq branch'); post-commit records each code commit
(hash, subject, files) as a log entry of the agent mounted in the checkout.

Installing never overwrites a hook you already have: yours is moved to
<hook>.planq-chained and runs first, and its exit status stays the hook's.
'remove' puts it back. Install and remove also set the hook's switch in
.planq/config (hooks.post_checkout); commit it to share the choice.`,
		Args: exactArgs(0, "a subcommand: install, remove or run"),
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	names := strings.Join(hooks.GitHooks, "|")
	cmd.AddCommand(&cobra.Command{
		Use:   "install " + names,
		Short: "Install a git hook in the code repository",
		Args:  exactArgs(1, "the hook's name"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runGitHookSetup(cmd.Context(), env, args[0], true)
		},
	}, &cobra.Command{
		Use:   "remove " + names,
		Short: "Remove planq's git hook, restoring the one it chained",
		Args:  exactArgs(1, "the hook's name"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runGitHookSetup(cmd.Context(), env, args[0], false)
		},
	}, &cobra.Command{
		Use:    "run HOOK [ARGS...]",
		Short:  "Run a git hook's handler (git calls this)",
		Hidden: true,
		Args:   cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			runGitHook(cmd.Context(), env, args)
			return nil // a hook handler never fails the git command
		},
	})
	return cmd
}

func runGitHookSetup(ctx context.Context, env *Env, name string, install bool) error {
	self, _ := os.Executable()
	res, err := env.service().SetGitHook(ctx, name, install, self)
	if err != nil {
		return err
	}
	switch {
	case res.Chained != "":
		env.Log.Info("installed git hook; your hook runs first", "hook", res.Path, "yours", res.Chained)
	case res.Changed && install:
		env.Log.Info("installed git hook", "hook", res.Path)
	case res.Changed:
		env.Log.Info("removed git hook", "hook", res.Path)
	case install:
		env.Log.Info("git hook already installed; nothing changed", "hook", res.Path)
	default:
		env.Log.Info("planq's git hook is not installed; nothing changed", "hook", res.Path)
	}
	if res.Switch != "" {
		env.Log.Info("updated .planq/config", res.Switch, install)
	}
	return nil
}

// runGitHook is what an installed hook runs. It prints what helps and logs
// (at debug level) what went wrong; it never fails and never takes long.
func runGitHook(ctx context.Context, env *Env, args []string) {
	ctx, cancel := context.WithTimeout(ctx, gitHookBudget)
	defer cancel()
	if len(args) == 0 {
		return
	}
	if err := gitHookHandler(ctx, env, args[0], args[1:]); err != nil {
		env.Log.Debug("git hook", "hook", args[0], "err", err)
	}
}

func gitHookHandler(ctx context.Context, env *Env, hook string, args []string) error {
	svc := env.service()
	if on, err := svc.GitHookOn(hook); err != nil || !on {
		return err
	}
	switch {
	case hook == "post-commit":
		w, recorded, err := svc.RecordCommit(ctx)
		if recorded {
			env.Log.Info("recorded code commit in the agent's log", "agent", w.Agent, "record", w.ID)
		}
		return err
	case hook == "post-checkout" && len(args) >= 3 && args[2] == "1":
		// Only branch checkouts (flag 1), not file checkouts.
		note, err := svc.BranchSwitched(ctx)
		if err != nil || note == nil {
			return err
		}
		c := note.Context
		_, err = fmt.Fprintf(env.Stdout, "planq: context of branch %s (%s, %s):\n%s\n", c.Branch, c.Status, note.Source, strings.TrimSpace(c.Body))
		return err
	}
	return nil
}
