package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/session"
)

type initOptions struct {
	project string
	remote  string
}

func newInitCmd(env *Env) *cobra.Command {
	var opts initOptions
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Set up planq in this git repository",
		Long: `Set up planq in the current git repository:

  - write the tracked .planq/config (project name, hook switches, workspace location),
  - create the bare state repository $PLANQ_HOME/state-repos/<project>.git with an
    orphan 'global' branch; when the config names a team remote (--remote, or a
    committed .planq/config), global is fetched from it instead,
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
	cmd.Flags().StringVar(&opts.remote, "remote", "", "team remote `URL` to record in .planq/config")
	return cmd
}

func runInit(ctx context.Context, env *Env, opts initOptions) error {
	res, err := env.service().Init(ctx, session.InitInput{Project: opts.project, Remote: opts.remote})
	if err != nil {
		return err
	}
	p := res.Project
	if res.WroteConfig {
		env.Log.Info("wrote .planq/config", "project", p.Config.Project, "hint", "commit it")
	}
	if res.SetRemote {
		env.Log.Info("wrote the team remote into .planq/config", "remote", p.Config.Remote, "hint", "commit it, so clones find the team's memory")
	}
	if res.AddedExclude {
		env.Log.Info("excluded .planq/agent/ from the code repository", "file", p.CommonGitDir+"/info/exclude")
	}
	if res.State.Created {
		reportStateInit(env, res)
	}
	if !res.WroteConfig && !res.SetRemote && !res.AddedExclude && !res.State.Created {
		env.Log.Info("already initialised; nothing changed", "project", p.Config.Project)
	}
	env.printf("%s\n", p.StateRepo())
	return nil
}
