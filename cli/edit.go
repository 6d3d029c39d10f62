package cli

import (
	"errors"

	"github.com/spf13/cobra"
)

// newEditCmd is a placeholder until the command is built.
func newEditCmd(_ *Env) *cobra.Command {
	return &cobra.Command{
		Use: "edit ID", Short: "Write a new version of a learning or decision", Hidden: true,
		RunE: func(*cobra.Command, []string) error { return errors.New("not built yet") },
	}
}
