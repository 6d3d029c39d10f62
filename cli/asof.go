package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/readmodel"
)

// asOfFlag is --as-of: a reading command shows the memory as it was then,
// read from git history.
type asOfFlag struct{ spec string }

func (f *asOfFlag) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.spec, "as-of", "", "show the memory as it was at `DATE|COMMIT` (2026-11-02: the end of that day, UTC; or a time, or a commit of the state repository)")
}

// pin points the handle's reads at the moment asked for, if one was, and
// says on stderr which commit of global that is.
func (f asOfFlag) pin(ctx context.Context, env *Env, h *readmodel.Handle) error {
	if f.spec == "" {
		return nil
	}
	at, err := h.Records.PinAsOf(ctx, f.spec)
	if err != nil {
		return err
	}
	f.report(env, at)
	return nil
}

// report says on stderr which moment a read was pinned to, if it was.
func (f asOfFlag) report(env *Env, at readmodel.AsOf) {
	if f.spec == "" || at.Time.IsZero() {
		return
	}
	env.Log.Info("reading the memory as of "+at.Time.Format("2006-01-02 15:04:05Z07:00"), "global", short(at.Global))
}
