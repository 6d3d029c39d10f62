package cli

import (
	"context"

	"github.com/spf13/cobra"
)

func newUserRemoteCmd(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:   "remote [URL]",
		Short: "Show or set the user layer's remote",
		Long: `Without URL, print the user layer's remote (when none is set, nothing on stdout,
and a line on stderr saying so; the exit code is 0). With URL,
make it the remote 'planq user push' and 'planq user pull' sync with, in
$PLANQ_HOME/user.yaml: a git repository of yours (ssh, https, or an absolute
path to a bare repository). A URL with a password or token in it is refused:
let git's credential helper supply those.`,
		Example: "  planq user remote git@github.com:ada/planq-user.git",
		Args:    maxArgs(1, "one URL"),
		RunE: func(cmd *cobra.Command, args []string) error {
			svc := env.service()
			if len(args) == 0 {
				remote, err := svc.UserRemote()
				if err != nil {
					return err
				}
				if remote == "" {
					// As 'planq state remote list' with none: nothing on
					// stdout, and no failure; stderr says so.
					env.Log.Info("the user layer has no remote", "hint", "set one: planq user remote URL")
					return nil
				}
				env.printf("%s\n", remote)
				return nil
			}
			file, err := svc.SetUserRemote(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			env.Log.Info("set the user layer's remote", "url", args[0], "file", file)
			return nil
		},
	}
}

type userSyncOptions struct {
	json        bool
	allowSecret bool
}

func newUserPushCmd(env *Env) *cobra.Command {
	var opts userSyncOptions
	cmd := &cobra.Command{
		Use:   "push",
		Short: "Publish the user layer to its remote",
		Long: `Push the user layer to its remote (planq user remote URL), as 'planq state push'
pushes a project's global: with a lease on what the remote last had, merging
first what another machine pushed since, and refusing records that look like
credentials before anything is sent. The user layer keeps no credential:
nothing excuses one (a writer's allowance, or --allow-secret, which is
refused); retract or edit the record with --scope user.

--json prints {"remote","commit","pulls"}: the remote's URL, the commit pushed,
and the merges needed because another machine pushed first.`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error { return runUserPush(cmd.Context(), env, opts) },
	}
	// Kept, hidden, to answer with why rather than "unknown flag".
	cmd.Flags().BoolVar(&opts.allowSecret, "allow-secret", false, "refused: the user layer keeps no credential")
	_ = cmd.Flags().MarkHidden("allow-secret") // the flag exists: MarkHidden cannot fail
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the result as JSON")
	return cmd
}

func runUserPush(ctx context.Context, env *Env, opts userSyncOptions) error {
	done := env.progress(opts.json, "pushing the user layer")
	out, err := env.service().UserPush(ctx, opts.allowSecret)
	done()
	madeUserLayer(env, out.Made)
	if err != nil {
		return err
	}
	env.Log.Info("pushed the user layer", "remote", out.Remote, "commit", short(out.Commit), "merged_first", out.Pulls)
	if opts.json {
		return env.writeJSON(out)
	}
	return nil
}

func newUserPullCmd(env *Env) *cobra.Command {
	var opts userSyncOptions
	cmd := &cobra.Command{
		Use:   "pull",
		Short: "Merge the user layer's remote into it",
		Long: `Fetch the user layer from its remote (planq user remote URL) and merge it, as
'planq state pull' does a project's global: a fast-forward when possible, else a
three-way merge. On a machine where the user layer does not exist yet, it is
made first. A remote that holds a project's global, not a user layer, is
refused.

--json prints {"remote","outcome","before","after"}, outcome up-to-date,
fast-forward, merged, ahead or empty.`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error { return runUserPull(cmd.Context(), env, opts) },
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the result as JSON")
	return cmd
}

func runUserPull(ctx context.Context, env *Env, opts userSyncOptions) error {
	done := env.progress(opts.json, "pulling the user layer")
	out, err := env.service().UserPull(ctx)
	done()
	madeUserLayer(env, out.Made)
	if err != nil {
		return err
	}
	env.Log.Info("pulled the user layer", "remote", out.Remote, "outcome", out.Outcome, "commit", short(out.After))
	if opts.json {
		return env.writeJSON(out)
	}
	return nil
}
