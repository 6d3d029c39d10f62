package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/workspace"
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

// withStore runs fn with the project's store, closing it after.
func withStore(ctx context.Context, env *Env, fn func(*agent.Store) error) error {
	p, err := env.project()
	if err != nil {
		return err
	}
	store, err := agent.OpenStore(ctx, p)
	if err != nil {
		return err
	}
	defer env.closeStore(store)
	return fn(store)
}

// withHandle runs fn with the project opened to read, closing it after: a
// reading command needs no writer.
func withHandle(ctx context.Context, env *Env, fn func(*readmodel.Handle) error) error {
	p, err := env.project()
	if err != nil {
		return err
	}
	h, err := readmodel.OpenHandle(ctx, p)
	if err != nil {
		return err
	}
	defer env.closeHandle(h)
	return fn(h)
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
	p, err := env.project()
	if err != nil {
		return err
	}
	if err := workspace.RefuseOverDeadMount(p); err != nil {
		return err
	}
	res, err := workspace.InitState(ctx, p)
	if err != nil {
		return err
	}
	reportStateInit(env, p, res)
	env.printf("%s\n", p.StateRepo())
	return nil
}

func reportStateInit(env *Env, p *project.Project, res workspace.StateInit) {
	switch {
	case res.Fetched:
		env.Log.Info("created state repository from the team's remote", "path", p.StateRepo(), "remote", p.Config.Remote)
	case res.Created:
		env.Log.Info("created state repository", "path", p.StateRepo(), "branch", project.GlobalBranch)
	default:
		env.Log.Info("state repository exists; nothing changed", "path", p.StateRepo())
	}
}
