package cli

import (
	"errors"

	"github.com/spf13/cobra"
)

// newDedupeCmd is a placeholder until the command is built.
func newDedupeCmd(_ *Env) *cobra.Command {
	return &cobra.Command{
		Use: "dedupe", Short: "Find and merge duplicate learnings", Hidden: true,
		RunE: func(*cobra.Command, []string) error { return errors.New("not built yet") },
	}
}
