package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/session"
)

func newStateCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "state",
		Short: "Manage the state repository: init, push, pull, remotes, gc",
		Args:  exactArgs(0, "a subcommand"),
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newStateInitCmd(env), newPushCmd(env), newPullCmd(env), newRemoteCmd(env),
		newGCCmd(env), newRestoreCmd(env), newArchivesCmd(env))
	return cmd
}

func newStateInitCmd(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:   "init",
		Short: "Create the state repository of an initialised project",
		Long: `Create $PLANQ_HOME/state-repos/<project>.git for a repository whose .planq/config
is already committed (a fresh clone, a new machine). When the config names a
remote, global is fetched from it instead of starting empty; an unreachable
remote is an error and leaves nothing behind. Running it again changes nothing.`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error { return runStateInit(cmd.Context(), env) },
	}
}

func runStateInit(ctx context.Context, env *Env) error {
	res, err := env.service().InitState(ctx)
	if err != nil {
		return err
	}
	reportStateInit(env, res)
	env.printf("%s\n", res.Project.StateRepo())
	return nil
}

func reportStateInit(env *Env, res session.InitResult) {
	path := res.Project.StateRepo()
	switch {
	case res.State.Fetched:
		env.Log.Info("created state repository from the team's remote", "path", path, "remote", res.Project.Config.Remote)
	case res.State.Created:
		env.Log.Info("created state repository", "path", path, "branch", session.GlobalBranch)
	default:
		env.Log.Info("state repository exists; nothing changed", "path", path)
	}
}
