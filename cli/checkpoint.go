package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/session"
)

type checkpointOptions struct {
	writeFlags
	message string
}

func newCheckpointCmd(env *Env) *cobra.Command {
	var opts checkpointOptions
	cmd := &cobra.Command{
		Use:   "checkpoint NAME",
		Short: "Save the agent's state under a name (a commit and a tag)",
		Long: `Commit the agent's pending state, write a checkpoint record, and tag that commit
checkpoint/<agent>/NAME in the state repository. 'planq checkpoint list' shows them.`,
		Example: "  planq checkpoint before-refactor -m \"tests green, API stable\"",
		Args:    exactArgs(1, "the checkpoint's NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCheckpoint(cmd.Context(), env, opts, args[0])
		},
	}
	opts.register(cmd)
	cmd.Flags().StringVarP(&opts.message, "message", "m", "", "a note saying what state this is")
	cmd.AddCommand(newCheckpointListCmd(env))
	return cmd
}

func runCheckpoint(ctx context.Context, env *Env, opts checkpointOptions, name string) error {
	w, err := env.service().Checkpoint(ctx, session.CheckpointInput{Author: opts.author(), Name: name, Note: opts.message})
	if err == nil {
		env.Log.Info("tagged checkpoint", "tag", "checkpoint/"+w.Agent+"/"+name, "commit", short(w.Commit))
	}
	return reported(env, opts.writeFlags)(w, err)
}

type checkpointListOptions struct {
	agent string
	all   bool
	json  bool
}

func newCheckpointListCmd(env *Env) *cobra.Command {
	var opts checkpointListOptions
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List checkpoints",
		Long:  `List the agent's checkpoints, oldest first (--all: every agent's). --json prints [{"agent","name","commit","time","note"}].`,
		Args:  exactArgs(0, "no arguments"),
		RunE:  func(cmd *cobra.Command, _ []string) error { return runCheckpointList(cmd.Context(), env, opts) },
	}
	cmd.Flags().StringVar(&opts.agent, "agent", "", "list agent `NAME`'s checkpoints")
	cmd.Flags().BoolVar(&opts.all, "all", false, "list every agent's checkpoints")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print as JSON")
	return cmd
}

func runCheckpointList(ctx context.Context, env *Env, opts checkpointListOptions) error {
	list, err := env.service().Checkpoints(ctx, opts.agent, opts.all)
	if err != nil {
		return err
	}
	if opts.json {
		return env.writeJSON(list)
	}
	tw := newTable(env.Stdout)
	fmt.Fprintln(tw, "AGENT\tNAME\tCOMMIT\tTIME\tNOTE")
	for _, c := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", c.Agent, c.Name, short(c.Commit), c.Time.Local().Format("2006-01-02 15:04"), c.Note)
	}
	return tw.Flush()
}
