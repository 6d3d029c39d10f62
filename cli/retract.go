package cli

import (
	"context"
	"errors"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/userlayer"
)

type retractOptions struct {
	writeFlags
	id      string
	because string
	scope   string
}

func newRetractCmd(env *Env) *cobra.Command {
	var opts retractOptions
	cmd := &cobra.Command{
		Use:   "retract ID",
		Short: "Retract a record: a tombstone that supersedes it",
		Long: `Retract record ID: write a tombstone, a record of its kind that supersedes it
and says why. Readers (context, prime, log, search) stop showing it, promote
carries the retraction to global, and state push no longer refuses what the
record held. Nothing is deleted: git keeps the record's history.

--scope user retracts a learning or decision of the user layer (see planq user)
instead: one commit on its global; 'planq user push' carries it to your other
machines.

To correct a record rather than retract it, write its new version with
'planq edit ID'.`,
		Example: `  planq retract pq-3f9a1c2e4b --because "the key was real; rotated"
  planq context promote --all   # carry the retraction to global
  planq retract pq-7c0d2e9a1b --scope user --because "I changed my mind"`,
		Args: exactArgs(1, "the record's ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.id = args[0]
			return runRetract(cmd.Context(), env, opts)
		},
	}
	opts.register(cmd)
	cmd.Flags().StringVar(&opts.because, "because", "", "why it is retracted (`REASON`)")
	cmd.Flags().StringVar(&opts.because, "reason", "", "the same as --because (`REASON`)")
	cmd.MarkFlagsMutuallyExclusive("because", "reason")
	registerRecordScope(cmd, &opts.scope)
	return cmd
}

func runRetract(ctx context.Context, env *Env, opts retractOptions) error {
	if err := checkScope(opts.scope); err != nil {
		return err
	}
	if opts.scope == scopeUser {
		return inUserLayer(ctx, env, opts.writeFlags, opts.id, func(l *userlayer.Layer) (agent.Written, error) {
			return l.Retract(ctx, opts.id, opts.because)
		})
	}
	err := writeAs(ctx, env, opts.writeFlags, func(a *agent.Agent, o agent.WriteOptions) (agent.Written, error) {
		return a.Retract(ctx, opts.id, opts.because, o)
	})
	return pointAtUserLayer(ctx, err, "retract", opts.id)
}

// registerRecordScope adds --scope to a command that acts on one record:
// the project's (the default) or the user layer's.
func registerRecordScope(cmd *cobra.Command, scope *string) {
	cmd.Flags().StringVar(scope, "scope", scopeProject, "whose record: "+scopeProject+" (an agent's or global's) or "+scopeUser+" (the user layer's, yours across projects)")
}

// inUserLayer makes one write to the user layer's record id and reports it
// as writeAs reports an agent's. The layer is opened only if it exists: a
// record of a layer never made is no record.
func inUserLayer(ctx context.Context, env *Env, flags writeFlags, id string, write func(*userlayer.Layer) (agent.Written, error)) error {
	l, err := openUserLayerFor(ctx, flags, id)
	if err != nil {
		return err
	}
	defer env.closeHandle(l.Handle)
	w, err := write(l)
	if err != nil {
		return err
	}
	return reportWritten(env, flags, w)
}

// openUserLayerFor opens the user layer for a --scope user command on its
// record id: --agent names none of it, and it takes no credential.
func openUserLayerFor(ctx context.Context, flags writeFlags, id string) (*userlayer.Layer, error) {
	if flags.agent != "" {
		return nil, usagef("--agent names an agent of a project; the user layer has none: leave --agent out, or act on the project's record (--scope project)")
	}
	if err := userlayer.CheckAllowSecret(flags.allowSecret); err != nil {
		return nil, err
	}
	l, err := openExistingUserLayer(ctx)
	if err != nil {
		return nil, err
	}
	if l == nil {
		return nil, planqerr.New(planqerr.NotFound, id, "no such learning or decision in the user layer: it was never made").
			WithHint("a project's record is acted on without --scope user")
	}
	return l, nil
}

// pointAtUserLayer gives a project command's "no such record" the way to
// the user layer when id is one of its records: the two are kept apart,
// and a person who wrote it with --scope user may not remember.
func pointAtUserLayer(ctx context.Context, err error, command, id string) error {
	var pe *planqerr.Error
	if !errors.As(err, &pe) || pe.Kind != planqerr.NotFound || pe.Subject != id {
		return err
	}
	l, lerr := openExistingUserLayer(ctx)
	if lerr != nil || l == nil {
		return err
	}
	defer func() { _ = l.Close() }() // the cache is only a shortcut
	if has, herr := l.Has(id); herr != nil || !has {
		return err
	}
	found := *pe
	found.Err = errors.New("no such record in this project; the user layer has it")
	found.Hint = "act on it there: planq " + command + " " + id + " --scope user"
	return &found
}
