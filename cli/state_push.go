package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/session"
)

type pushOptions struct {
	remote         string
	agents         bool
	allowSecret    bool
	allowUnrelated bool
	json           bool
}

func newPushCmd(env *Env) *cobra.Command {
	var opts pushOptions
	cmd := &cobra.Command{
		Use:   "push [REMOTE]",
		Short: "Publish global to the team remote",
		Long: `Push global to REMOTE (default origin: the remote of .planq/config) as
refs/planq/global, never as a branch a code host would offer for a pull request.
The push carries a lease on what the remote last had: if a teammate pushed since,
planq pulls, merges and pushes again, never overwriting their work. Records that
look like credentials stop the push before anything is sent, unless their writer
allowed them (--allow-secret when writing) or a later version or a retraction
('planq retract ID') replaces them; a proposal's record and proposed files stop
it until the proposal is dismissed ('planq proposals dismiss ID'). --allow-secret
here publishes them anyway.

A remote whose global belongs to another project (its PROJECT names another)
is refused, as by pull; --allow-unrelated merges it first all the same.

--agents also publishes this machine's agent branches, under
refs/planq/agents/<owner>/<agent>, where <owner> is unique to this machine.

The knowledge base is brought in step (planq kb update) before the push and
after each merge it makes, so what it publishes is what a teammate's pull would
make: their pulls change nothing. Its failure does not fail the push.`,
		Args: maxArgs(1, "one REMOTE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.remote = remoteArg(args)
			return runPush(cmd.Context(), env, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.agents, "agents", false, "also push this machine's agent branches")
	cmd.Flags().BoolVar(&opts.allowSecret, "allow-secret", false, "publish records even if they look like credentials")
	cmd.Flags().BoolVar(&opts.allowUnrelated, "allow-unrelated", false, "merge first a remote global of another project or history")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the result as JSON")
	return cmd
}

func runPush(ctx context.Context, env *Env, opts pushOptions) error {
	done := env.progress(opts.json, "pushing to %s", opts.remote)
	res, err := env.service().Push(ctx, session.PushInput{Remote: opts.remote, Agents: opts.agents, AllowSecret: opts.allowSecret, AllowUnrelated: opts.allowUnrelated})
	done()
	if err != nil {
		return err
	}
	env.Log.Info("pushed global", "remote", res.Remote, "commit", short(res.Global), "merged_first", res.Pulls)
	if len(res.Agents) > 0 {
		env.Log.Info("pushed agent branches", "count", len(res.Agents))
	}
	logKnowledge(env, res.Knowledge)
	if opts.json {
		return env.writeJSON(res)
	}
	return nil
}

// remoteArg is the REMOTE argument of push and pull, default origin.
func remoteArg(args []string) string {
	if len(args) == 1 {
		return args[0]
	}
	return session.DefaultRemote
}
