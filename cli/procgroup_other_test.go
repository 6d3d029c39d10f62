//go:build !unix

package cli

import "os/exec"

// leadOwnGroup does nothing here: process groups are Unix's.
func leadOwnGroup(*exec.Cmd) {}

// killGroup kills cmd's process; its children live on.
func killGroup(cmd *exec.Cmd) { _ = cmd.Process.Kill() }

// killedAsCrashed is whether the process ended as a crash point ends it
// where there are no signals: exit code 137 (internal/failpoint).
func killedAsCrashed(exit *exec.ExitError) bool { return exit.ExitCode() == 137 }
