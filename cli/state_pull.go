package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/session"
)

type pullOptions struct {
	remote         string
	agents         bool
	allowUnrelated bool
	json           bool
}

func newPullCmd(env *Env) *cobra.Command {
	var opts pullOptions
	cmd := &cobra.Command{
		Use:   "pull [REMOTE]",
		Short: "Fetch the team's global and merge it",
		Long: `Fetch global from REMOTE (default origin) and merge it into the local global:
a fast-forward when possible, else a three-way, per-path merge that never writes
conflict markers and never loses a record (see 'How it works' in the README).
History that is not planq state (no planq README, no record directory) is
refused. So is a global that belongs to another project (the PROJECT file of
global names its project), and one that shares no history with this one,
unless --allow-unrelated says to merge it all the same. A global made before
planq named its project is taken as this project's; the next push names it.

--agents also fetches teammates' agent branches, read only.

When global moved, the knowledge base is brought in step with what came (planq
kb update, in a commit of its own; knowledge/_index.md is regenerated, never
merged); --json gives what it did under "knowledge". Its failure does not fail
the pull, which has landed: run 'planq kb update' again.`,
		Args: maxArgs(1, "one REMOTE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.remote = remoteArg(args)
			return runPull(cmd.Context(), env, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.agents, "agents", false, "also fetch teammates' agent branches")
	cmd.Flags().BoolVar(&opts.allowUnrelated, "allow-unrelated", false, "merge a global of another project, or that shares no history with this one")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the result as JSON")
	return cmd
}

func runPull(ctx context.Context, env *Env, opts pullOptions) error {
	svc := env.service()
	done := env.progress(opts.json, "pulling from %s", opts.remote)
	res, err := svc.Pull(ctx, session.PullInput{Remote: opts.remote, Agents: opts.agents, AllowUnrelated: opts.allowUnrelated})
	done()
	if err != nil {
		return err
	}
	env.Log.Info("pulled global", "remote", res.Remote, "outcome", res.Outcome, "before", short(res.Before), "after", short(res.After))
	if res.Project == "" && res.Outcome != "empty" {
		name, _ := svc.Name() // the pull found the project
		env.Log.Warn("the remote's global names no project (an older planq made it); taken as this project's, and named by the next push",
			"remote", res.Remote, "project", name)
	}
	for _, c := range res.Choices {
		env.Log.Warn("changed on both sides; kept one version", "path", c.Path, "kept", short(c.Kept), "other", short(c.Other))
	}
	logKnowledge(env, res.Knowledge)
	if opts.json {
		return env.writeJSON(res)
	}
	return nil
}
