package cli

import (
	"errors"

	"github.com/spf13/cobra"
)

// newArchiveCmd is a placeholder until the command is built.
func newArchiveCmd(_ *Env) *cobra.Command {
	return &cobra.Command{
		Use: "archive", Short: "Show the archived learnings", Hidden: true,
		RunE: func(*cobra.Command, []string) error { return errors.New("not built yet") },
	}
}
