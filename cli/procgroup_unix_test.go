//go:build unix

package cli

import (
	"os/exec"
	"syscall"
)

// leadOwnGroup makes cmd's process lead a process group of its own, as a
// shell starts a command, so that its git children can be killed with it.
func leadOwnGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills cmd's process group (see leadOwnGroup) as the kernel
// kills a process: SIGKILL, no cleanup.
func killGroup(cmd *exec.Cmd) {
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}

// killedAsCrashed is whether the process ended as a crash point ends it:
// killed by SIGKILL (internal/failpoint).
func killedAsCrashed(exit *exec.ExitError) bool {
	ws, ok := exit.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
}
