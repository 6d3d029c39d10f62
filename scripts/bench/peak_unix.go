//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// exitedPeakKiB is the peak resident set of a process that has exited, in
// KiB, from the kernel's accounting of it.
func exitedPeakKiB(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return ru.Maxrss / 1024 // bytes there, KiB elsewhere
	}
	return ru.Maxrss
}

// platformSupported says whether the bench can measure here.
func platformSupported() error { return nil }

// exitedMinorFaults is the minor page faults of a process that has exited:
// the pages of its binary and heap it touched.
func exitedMinorFaults(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	return ru.Minflt
}
