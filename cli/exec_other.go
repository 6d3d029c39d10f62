//go:build !unix

package cli

import "errors"

// replaceProcess is not used where there is no exec: handOff runs the
// program as a child.
func replaceProcess(string, []string) error { return errors.New("cannot replace the process here") }
