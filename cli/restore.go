package cli

import (
	"errors"

	"github.com/spf13/cobra"
)

// newRestoreRecordCmd is a placeholder until the command is built.
func newRestoreRecordCmd(_ *Env) *cobra.Command {
	return &cobra.Command{
		Use: "restore ID", Short: "Bring an archived learning back", Hidden: true,
		RunE: func(*cobra.Command, []string) error { return errors.New("not built yet") },
	}
}
