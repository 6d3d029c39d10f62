package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/workspace"
)

type initOptions struct {
	project string
}

func newInitCmd(env *Env) *cobra.Command {
	var opts initOptions
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Set up planq in this git repository",
		Long: `Set up planq in the current git repository:

  - write the tracked .planq/config (project name, hook switches, workspace location),
  - create the bare state repository $PLANQ_HOME/state-repos/<project>.git with an
    orphan 'global' branch,
  - keep .planq/agent out of the code repository (in .git/info/exclude).

Running it again changes nothing. Commit .planq/config so every clone and
workspace of the repository is the same project.`,
		Example: "  planq init\n  planq init --project payments",
		Args:    exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runInit(cmd.Context(), env, opts)
		},
	}
	cmd.Flags().StringVar(&opts.project, "project", "", "project `NAME` (default: the repository directory's name)")
	return cmd
}

func runInit(ctx context.Context, env *Env, opts initOptions) error {
	res, err := workspace.Init(ctx, env.Dir, workspace.InitOptions{Project: opts.project})
	if err != nil {
		return err
	}
	p := res.Project
	if res.WroteConfig {
		env.Log.Info("wrote .planq/config", "project", p.Config.Project, "hint", "commit it")
	}
	if res.AddedExclude {
		env.Log.Info("excluded .planq/agent/ from the code repository", "file", p.CommonGitDir+"/info/exclude")
	}
	if res.CreatedStateRepo {
		env.Log.Info("created state repository", "path", p.StateRepo(), "branch", "global")
	}
	if !res.WroteConfig && !res.AddedExclude && !res.CreatedStateRepo {
		env.Log.Info("already initialised; nothing changed", "project", p.Config.Project)
	}
	env.printf("%s\n", p.StateRepo())
	return nil
}

func newStateCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "state",
		Short: "Manage the project's state repository",
		Args:  exactArgs(0, "a subcommand"),
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "init",
		Short: "Create the state repository of an initialised project",
		Long: `Create $PLANQ_HOME/state-repos/<project>.git with its 'global' branch, for a
repository whose .planq/config is already committed (a fresh clone, a new machine).
Running it again changes nothing.`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := env.project()
			if err != nil {
				return err
			}
			created, err := workspace.InitState(cmd.Context(), p)
			if err != nil {
				return err
			}
			if created {
				env.Log.Info("created state repository", "path", p.StateRepo(), "branch", "global")
			} else {
				env.Log.Info("state repository exists; nothing changed", "path", p.StateRepo())
			}
			env.printf("%s\n", p.StateRepo())
			return nil
		},
	})
	return cmd
}
