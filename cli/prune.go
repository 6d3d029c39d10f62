package cli

import (
	"errors"

	"github.com/spf13/cobra"
)

// newPruneCmd is a placeholder until the command is built.
func newPruneCmd(_ *Env) *cobra.Command {
	return &cobra.Command{
		Use: "prune", Short: "Archive the learnings past their shelf life", Hidden: true,
		RunE: func(*cobra.Command, []string) error { return errors.New("not built yet") },
	}
}
