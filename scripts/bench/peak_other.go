//go:build !unix

package main

import (
	"fmt"
	"os"
	"runtime"
)

// exitedPeakKiB is unknown here: the bench does not run (platformSupported).
func exitedPeakKiB(*os.ProcessState) int64 { return 0 }

// exitedMinorFaults is unknown here, as exitedPeakKiB.
func exitedMinorFaults(*os.ProcessState) int64 { return 0 }

// platformSupported says whether the bench can measure here: its memory
// figures come from Unix process accounting.
func platformSupported() error {
	return fmt.Errorf("planq: bench: not supported on %s\nplanq: hint: the bench reads peak memory from Unix process accounting; run it on Linux or macOS", runtime.GOOS)
}
