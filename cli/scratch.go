package cli

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
)

type scratchOptions struct {
	writeFlags
	append  string
	replace bool
}

func newScratchCmd(env *Env) *cobra.Command {
	var opts scratchOptions
	cmd := &cobra.Command{
		Use:   "scratch",
		Short: "Show, append to, or replace the agent's scratch notes",
		Long: `The scratch notes (scratch.md in .planq/agent) are the agent's free-form working
memory. Without flags, print them. --append TEXT adds a line; --replace reads
new notes from stdin. Each change is committed at once.`,
		Example: "  planq scratch\n  planq scratch --append \"TODO: check the refresh path\"\n  planq scratch --replace < notes.md",
		Args:    exactArgs(0, "no arguments (use --append TEXT)"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runScratch(cmd.Context(), env, opts, cmd.Flags().Changed("append"))
		},
	}
	opts.register(cmd)
	cmd.Flags().StringVar(&opts.append, "append", "", "append `TEXT` to the notes")
	cmd.Flags().BoolVar(&opts.replace, "replace", false, "replace the notes with stdin")
	cmd.MarkFlagsMutuallyExclusive("append", "replace")
	return cmd
}

func runScratch(ctx context.Context, env *Env, opts scratchOptions, appending bool) error {
	store, a, err := env.openAgent(ctx, opts.agent)
	if err != nil {
		return err
	}
	defer env.closeStore(store)
	wopts := agent.WriteOptions{AllowSecret: opts.allowSecret}
	var w agent.Written
	switch {
	case appending:
		if err := requireText("scratch", opts.append); err != nil {
			return err
		}
		w, err = a.AppendScratch(ctx, opts.append, wopts)
	case opts.replace:
		data, rerr := io.ReadAll(io.LimitReader(env.Stdin, changelog.MaxRecordSize+1))
		if rerr != nil {
			return planqerr.New(planqerr.Failure, "stdin", "failed to read: %w", rerr)
		}
		w, err = a.SetScratch(ctx, string(data), wopts)
	default:
		text, err := a.Scratch()
		if err != nil {
			return err
		}
		if opts.json {
			return env.writeJSON(map[string]string{"agent": a.Name, "scratch": text})
		}
		env.printf("%s", text)
		return nil
	}
	if err != nil {
		return err
	}
	return reportWritten(env, opts.writeFlags, w)
}
