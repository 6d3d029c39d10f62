//go:build unix

package failpoint

import (
	"os"
	"syscall"
)

// crash dies by SIGKILL, as the kernel kills a process: no deferred
// function runs, no lock file is removed. A process that leads its group
// takes its children with it.
func crash() {
	if pgid, err := syscall.Getpgid(0); err == nil && pgid == os.Getpid() {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
	_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
	select {} // the signal is on its way
}
