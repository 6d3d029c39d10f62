//go:build !unix

package failpoint

import "os"

// crash exits at once with the code of a killed process: no deferred
// function runs.
func crash() { os.Exit(137) }
