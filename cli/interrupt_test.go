package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/planq-dev/planq/internal/testkit/testgit"
)

// TestInterruptedPromoteSaysSoAndChangesNothing runs promote with a context
// that Ctrl-C has cancelled: planq says it was interrupted, in its words,
// exits 130, and global is as it was.
func TestInterruptedPromoteSaysSoAndChangesNothing(t *testing.T) {
	home, dir := projectRunning(t, []string{"learn", "Tokens expire after 15 minutes", "--type", "pattern", "--domain", "auth"})
	run := func(ctx context.Context, args ...string) (int, string) {
		var stdout, stderr bytes.Buffer
		code := Run(ctx, append([]string{"-C", dir}, args...), strings.NewReader(""), &stdout, &stderr)
		return code, stderr.String()
	}
	state := filepath.Join(home, ".planq", "state-repos", "demo.git")
	before := testgit.Run(t, state, "rev-parse", "global")

	ctx, cancel := context.WithCancel(context.Background())
	cancel() // Ctrl-C, before promote could finish
	code, stderr := run(ctx, "context", "promote", "--all")
	if code != ExitInterrupted {
		t.Errorf("interrupted promote: exit %d, want %d\n%s", code, ExitInterrupted, stderr)
	}
	if !strings.Contains(stderr, "planq: interrupted;") || strings.Contains(stderr, "context canceled") {
		t.Errorf("interrupted promote should say so in planq's words, got:\n%s", stderr)
	}
	if after := testgit.Run(t, state, "rev-parse", "global"); after != before {
		t.Errorf("global moved from %s to %s under an interrupted promote", before, after)
	}
	if code, stderr := run(context.Background(), "context", "promote", "--all"); code != 0 {
		t.Fatalf("promote after the interruption: exit %d\n%s", code, stderr)
	}
}

// projectRunning makes an isolated HOME and a code repository with one
// commit, in which planq inits project demo, creates agent auth and then
// runs first; each must succeed. It returns HOME and the checkout.
func projectRunning(t *testing.T, first []string) (home, dir string) {
	t.Helper()
	home = testgit.Isolate(t)
	dir = filepath.Join(t.TempDir(), "app")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	testgit.Run(t, dir, "init", "-q")
	testgit.Run(t, dir, "commit", "-q", "--allow-empty", "-m", "init")
	for _, args := range [][]string{{"init", "--project", "demo"}, {"create", "auth", "--here"}, first} {
		var stderr bytes.Buffer
		if code := Run(context.Background(), append([]string{"-C", dir}, args...), strings.NewReader(""), io.Discard, &stderr); code != 0 {
			t.Fatalf("planq %v: exit %d\n%s", args, code, stderr.String())
		}
	}
	return home, dir
}

// TestCtrlCInAProcessSaysInterrupted sends SIGINT to a planq process
// waiting for another writer's lock: the process, not a test's context,
// catches it (Main sets the catching up only once a command runs), says so
// in planq's words and exits 130.
func TestCtrlCInAProcessSaysInterrupted(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("needs /proc to see the process wait for the lock")
	}
	home, dir := projectRunning(t, []string{"log", "add", "first"})
	locks, _ := filepath.Glob(filepath.Join(home, ".planq", "state-repos", "demo.git", "planq", "locks", "*.lock"))
	if len(locks) == 0 {
		t.Fatal("log add took no lock")
	}
	for _, l := range locks { // another writer, as long as the test runs
		fl := flock.New(l)
		if err := fl.Lock(); err != nil {
			t.Fatal(err)
		}
		defer func() { _ = fl.Unlock() }()
	}

	// The test binary is planq when called so (see TestMain).
	bin := filepath.Join(t.TempDir(), "planq")
	if err := os.Symlink(os.Args[0], bin); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-C", dir, "log", "add", "second")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	// The waiting process holds the lock file open only while it tries the
	// lock (flock's TryLock closes it between tries, 10 ms apart), so it is
	// looked for without pause; and a process that ended instead of waiting
	// says why at once. On a quiet machine each try is over in microseconds
	// and the poll may never see one: a process still running two seconds
	// after it started (a log add takes milliseconds, and the lock is held)
	// is waiting for it too.
	started := time.Now()
	waiting := func() bool {
		if time.Since(started) > 2*time.Second {
			return true
		}
		fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", cmd.Process.Pid))
		for _, fd := range fds {
			if target, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", cmd.Process.Pid, fd.Name())); err == nil && slices.Contains(locks, target) {
				return true
			}
		}
		return false
	}
	for deadline := time.Now().Add(25 * time.Second); !waiting(); time.Sleep(100 * time.Microsecond) {
		select {
		case err := <-exited:
			t.Fatalf("planq ended (%v) instead of waiting for the lock:\n%s", err, stderr.String())
		default:
		}
		if time.Now().After(deadline) { // the process gives up the lock after staterepo.LockTimeout (30 s)
			_ = cmd.Process.Kill()
			t.Fatalf("planq never waited for the lock:\n%s", stderr.String())
		}
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err := <-exited
	if code := cmd.ProcessState.ExitCode(); code != ExitInterrupted {
		t.Errorf("planq after Ctrl-C: exit %d (%v), want %d\n%s", code, err, ExitInterrupted, stderr.String())
	}
	if !strings.Contains(stderr.String(), "planq: interrupted;") {
		t.Errorf("planq after Ctrl-C should say it was interrupted, got:\n%s", stderr.String())
	}
}
