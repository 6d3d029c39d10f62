package cli

import (
	"errors"

	"github.com/spf13/cobra"
)

// newImportCmd is a placeholder until the command is built.
func newImportCmd(_ *Env) *cobra.Command {
	return &cobra.Command{
		Use: "import mulch [DIR]", Short: "Import records from another memory tool (mulch)", Hidden: true,
		RunE: func(*cobra.Command, []string) error { return errors.New("not built yet") },
	}
}
