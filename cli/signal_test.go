package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSignalEndsACommandBlockedOutsideItsContext sends SIGTERM, then
// SIGINT, to planq processes blocked where no context reaches: reading a
// message from a stdin that stays open. Each ends with exit 130 and says
// it was interrupted, though the read never returns.
func TestSignalEndsACommandBlockedOutsideItsContext(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("needs /proc to see the process read its stdin")
	}
	_, dir := projectRunning(t, []string{"log", "add", "first"})
	bin := filepath.Join(t.TempDir(), "planq") // the test binary is planq when called so
	if err := os.Symlink(os.Args[0], bin); err != nil {
		t.Fatal(err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			stdin, keepOpen, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer keepOpen.Close()
			cmd := exec.Command(bin, "-C", dir, "learn", "-", "--type", "pattern", "--domain", "auth")
			cmd.Stdin = stdin
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			_ = stdin.Close()
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			// Blocked in the read once its main thread sleeps in it; a
			// process still running a second after it started is too.
			started := time.Now()
			for !readingStdin(cmd.Process.Pid) && time.Since(started) < time.Second {
				select {
				case err := <-exited:
					t.Fatalf("planq ended (%v) instead of reading stdin:\n%s", err, stderr.String())
				case <-time.After(5 * time.Millisecond):
				}
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			var waitErr error
			select {
			case waitErr = <-exited:
			case <-time.After(20 * time.Second): // far beyond the grace: it would never end
				_ = cmd.Process.Kill()
				t.Fatalf("planq still running 20 s after %v:\n%s", sig, stderr.String())
			}
			if code := cmd.ProcessState.ExitCode(); code != ExitInterrupted {
				t.Errorf("planq after %v: exit %d (%v), want %d\n%s", sig, code, waitErr, ExitInterrupted, stderr.String())
			}
			if !strings.Contains(stderr.String(), "planq: interrupted;") {
				t.Errorf("planq after %v should say it was interrupted, got:\n%s", sig, stderr.String())
			}
		})
	}
}

// readingStdin reports whether process pid sleeps in a read, as far as
// /proc tells: its state is S and its wait channel a pipe or a read.
func readingStdin(pid int) bool {
	wchan, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "wchan"))
	if err != nil {
		return false
	}
	w := string(wchan)
	return strings.Contains(w, "pipe") || strings.Contains(w, "read")
}
