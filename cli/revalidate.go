package cli

import (
	"errors"

	"github.com/spf13/cobra"
)

// newRevalidateCmd is a placeholder until the command is built.
func newRevalidateCmd(_ *Env) *cobra.Command {
	return &cobra.Command{
		Use: "revalidate ID", Short: "Re-anchor a learning to the code as it is now", Hidden: true,
		RunE: func(*cobra.Command, []string) error { return errors.New("not built yet") },
	}
}
