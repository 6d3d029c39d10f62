package cli

import (
	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/session"
)

// asOfFlag is --as-of: a reading command shows the memory as it was then,
// read from git history.
type asOfFlag struct{ spec string }

func (f *asOfFlag) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.spec, "as-of", "", "show the memory as it was at `DATE|COMMIT` (2026-11-02: the end of that day, UTC; or a time, or a commit of the state repository)")
}

// report says on stderr which moment a read was pinned to, if it was.
func (f asOfFlag) report(env *Env, at session.AsOf) {
	if f.spec == "" || at.Time.IsZero() {
		return
	}
	env.Log.Info("reading the memory as of "+at.Time.Format("2006-01-02 15:04:05Z07:00"), "global", short(at.Global))
}
