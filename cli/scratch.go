package cli

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
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
	in := session.ScratchInput{Author: opts.author(), Text: opts.append}
	switch {
	case opts.replace:
		data, err := io.ReadAll(io.LimitReader(env.Stdin, changelog.MaxRecordSize+1))
		if err != nil {
			return planqerr.New(planqerr.Failure, "stdin", "failed to read: %w", err)
		}
		in.Text, in.Replace = string(data), true
	case !appending:
		notes, err := env.service().Scratch(ctx, opts.agent)
		if err != nil {
			return err
		}
		if opts.json {
			return env.writeJSON(notes)
		}
		env.printf("%s", notes.Text)
		return nil
	}
	return reported(env, opts.writeFlags)(env.service().WriteScratch(ctx, in))
}
