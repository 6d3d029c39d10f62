package cli

import (
	"errors"

	"github.com/spf13/cobra"
)

// newExportCmd is a placeholder until the command is built.
func newExportCmd(_ *Env) *cobra.Command {
	return &cobra.Command{
		Use: "export", Short: "Export the current learnings and decisions (jsonl, markdown)", Hidden: true,
		RunE: func(*cobra.Command, []string) error { return errors.New("not built yet") },
	}
}
