package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/session"
)

type revalidateOptions struct {
	writeFlags
	scope string
}

func newRevalidateCmd(env *Env) *cobra.Command {
	var opts revalidateOptions
	cmd := &cobra.Command{
		Use:   "revalidate ID",
		Short: "Re-anchor a learning to the code as it is now, after checking it",
		Long: `Record that learning ID still holds: you checked it against the code. It is
written again as a new version that supersedes it, with the same content,
anchored to the code checkout's HEAD: its evidence commit, and the blob of each
file it cites there. Readers stop marking it "may be stale", and its shelf life
starts afresh.

If it no longer holds, correct it ('planq edit ID') or retract it ('planq retract
ID') instead.

--scope user revalidates a learning of the user layer (see planq user): no
code stands behind the layer, so the new version carries what it cites as it
was; one commit on the layer's global.`,
		Example: "  planq search 'token refresh'   # (may be stale: internal/auth/jwt.go changed since 2026-11-02)\n  planq revalidate pq-3f9a1c2e4b",
		Args:    exactArgs(1, "the learning's ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRevalidate(cmd.Context(), env, opts, args[0])
		},
	}
	opts.register(cmd)
	registerRecordScope(cmd, &opts.scope)
	return cmd
}

func runRevalidate(ctx context.Context, env *Env, opts revalidateOptions, id string) error {
	return reported(env, opts.writeFlags)(env.service().Revalidate(ctx, session.RevalidateInput{Author: opts.author(),
		Scope: session.Scope(opts.scope), ID: id}))
}
