package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/internal/plural"
)

type removeOptions struct {
	name  string
	force bool
	json  bool
}

func newRemoveCmd(env *Env) *cobra.Command {
	var opts removeOptions
	cmd := &cobra.Command{
		Use:   "remove NAME",
		Short: "Unmount an agent and remove its workspace, keeping its branch",
		Long: `Remove agent NAME from its workspace:

  1. commit any pending state in its .planq/agent (nothing is ever lost),
  2. remove the state worktree,
  3. remove the code workspace if planq created it (a --here checkout stays).

Lines appended to its .planq/agent/notes.md become notes first. It refuses
(exit 7) while the code workspace has uncommitted changes, or while a line of
notes.md cannot become a note (a credential, invalid UTF-8): the message
names the line. --force removes it anyway; such lines stay committed in
notes.md on the branch. The branch agent-NAME stays:
'planq create NAME --resume' mounts it again.`,
		Args: exactArgs(1, "the agent's NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.name = args[0]
			return runRemove(cmd.Context(), env, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.force, "force", false, "remove even with uncommitted code changes (they are lost) or notes.md lines that cannot become notes (they stay committed on the branch)")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the result as JSON")
	return cmd
}

func runRemove(ctx context.Context, env *Env, opts removeOptions) error {
	res, err := env.service().Remove(ctx, opts.name, opts.force)
	if res.Saved != "" {
		env.Log.Info("committed pending agent state", "agent", opts.name, "commit", short(res.Saved))
	}
	for _, problem := range res.Problems {
		env.Log.Warn("malformed record committed as it was", "problem", problem)
	}
	warnKept(env, res.Kept)
	if err != nil {
		return err
	}
	if res.KeptIn != "" {
		env.Log.Warn(plural.Of(len(res.Kept), "line")+" of the notes inbox kept in notes.md on branch agent-"+opts.name, "commit", short(res.KeptIn),
			"hint", "'planq create "+opts.name+" --resume' mounts it again; the next note takes the lines once fixed")
	}
	if res.AgentDir != "" {
		env.Log.Info("removed agent worktree", "path", res.AgentDir, "branch", "agent-"+opts.name+" (kept)")
	} else {
		env.Log.Info("agent was not mounted; nothing to remove", "agent", opts.name)
	}
	if res.Workspace != "" {
		env.Log.Info("removed code workspace", "path", res.Workspace)
	}
	if res.RawNotes > 0 {
		env.Log.Info(plural.Of(res.RawNotes, "raw note")+" "+plural.Pick(res.RawNotes, "waits", "wait")+" for curation into the instruction files", "hint", "planq curate")
	}
	if opts.json {
		return env.writeJSON(res)
	}
	return nil
}
