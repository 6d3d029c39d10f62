//go:build unix

package cli

import (
	"fmt"
	"os"
	"syscall"
)

// replaceProcess runs bin with args in this process, in planq's place.
func replaceProcess(bin string, args []string) error {
	if err := syscall.Exec(bin, args, os.Environ()); err != nil {
		return fmt.Errorf("failed to run %s: %w", bin, err)
	}
	return nil // not reached: the process is bin's now
}
