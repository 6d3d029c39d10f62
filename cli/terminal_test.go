//go:build linux

package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/planq-dev/planq/internal/testkit/testgit"
)

// openTerminal opens a pseudo-terminal and returns its two ends: what a
// person types goes into the controlling end and comes out of the other,
// which planq reads as its terminal stdin.
func openTerminal(t *testing.T) (control, tty *os.File) {
	t.Helper()
	control, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY|unix.O_NONBLOCK, 0) // non-blocking: reads honour deadlines
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { control.Close() })
	if err := unix.IoctlSetPointerInt(int(control.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(control.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tty.Close() })
	return control, tty
}

// terminalProject is a project with agent a mounted in dir, run in process.
func terminalProject(t *testing.T) (dir string, run func(stdin *os.File, args ...string) (int, string, string)) {
	t.Helper()
	testgit.Isolate(t)
	dir = filepath.Join(t.TempDir(), "app")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	testgit.Run(t, dir, "init", "-q")
	testgit.Run(t, dir, "commit", "-q", "--allow-empty", "-m", "init")
	run = func(stdin *os.File, args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		var in any = strings.NewReader("")
		if stdin != nil {
			in = stdin
		}
		code := Run(context.Background(), append([]string{"-C", dir}, args...), in.(interface{ Read([]byte) (int, error) }), &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	for _, args := range [][]string{{"init", "--project", "demo"}, {"create", "a", "--here"}} {
		if code, _, stderr := run(nil, args...); code != 0 {
			t.Fatalf("planq %v: exit %d\n%s", args, code, stderr)
		}
	}
	return dir, run
}

// TestPromotePicksFromATerminal: promote without --all on a terminal lists
// the candidates and promotes the numbers the lead types.
func TestPromotePicksFromATerminal(t *testing.T) {
	_, run := terminalProject(t)
	var ids []string
	for _, text := range []string{"first to keep", "second to skip", "third to keep"} {
		code, stdout, stderr := run(nil, "learn", text, "--type", "guide", "--domain", "ops")
		if code != 0 {
			t.Fatalf("learn: %s", stderr)
		}
		ids = append(ids, strings.TrimSpace(stdout))
	}
	control, tty := openTerminal(t)
	if _, err := control.WriteString("1,3\n"); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := run(tty, "context", "promote", "--json")
	if code != 0 {
		t.Fatalf("promote: exit %d\n%s", code, stderr)
	}
	if !json.Valid([]byte(stdout)) {
		t.Errorf("promote --json on a terminal printed more than its JSON:\n%s", stdout)
	}
	if !strings.Contains(stderr, "promote which?") {
		t.Errorf("promote did not ask which: %s", stderr)
	}
	for i, id := range ids {
		if picked := i != 1; strings.Contains(stdout, id) != picked {
			t.Errorf("candidate %d (%s) promoted: %v, want %v\n%s", i+1, id, !picked, picked, stdout)
		}
	}
	if _, err := control.WriteString("9\n"); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(tty, "context", "promote"); code != ExitUsage || !strings.Contains(stderr, `cannot read "9" as numbers between 1 and 1`) {
		t.Errorf("a number out of range: exit %d\n%s", code, stderr)
	}
}

// TestBranchEditOpensTheEditor: branch edit on a terminal opens $EDITOR on
// the context's body and commits what the editor left.
func TestBranchEditOpensTheEditor(t *testing.T) {
	dir, run := terminalProject(t)
	testgit.Run(t, dir, "checkout", "-q", "-b", "feature/login")
	editor := filepath.Join(t.TempDir(), "editor")
	if err := os.WriteFile(editor, []byte("#!/bin/sh\nprintf '## Plan\\n\\nship the login page\\n' > \"$1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, tty := openTerminal(t)
	t.Setenv("VISUAL", "")
	t.Setenv("EDITOR", "")
	if code, _, stderr := run(tty, "branch", "edit"); code != ExitUsage || !strings.Contains(stderr, "neither $VISUAL nor $EDITOR is set") {
		t.Fatalf("no editor: exit %d\n%s", code, stderr)
	}
	t.Setenv("EDITOR", editor)
	if code, _, stderr := run(tty, "branch", "edit"); code != 0 {
		t.Fatalf("branch edit: exit %d\n%s", code, stderr)
	}
	code, stdout, stderr := run(nil, "branch", "show")
	if code != 0 || !strings.Contains(stdout, "ship the login page") {
		t.Errorf("branch show after editing: exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestProgressOnlyOnATerminal: long work shows progress on a terminal's
// stderr and erases it when done; quick work, --json or --quiet, and a
// stderr that is no terminal show nothing.
func TestProgressOnlyOnATerminal(t *testing.T) {
	control, tty := openTerminal(t)
	env := &Env{Stderr: tty}
	done := env.progress(false, "pulling from %s", "origin")
	time.Sleep(progressDelay + 250*time.Millisecond)
	done()
	done() // a second call is harmless
	if got := drain(t, control); !strings.Contains(got, "planq: pulling from origin") || !strings.HasSuffix(got, "\r\033[K") {
		t.Errorf("progress on a terminal: %q", got)
	}

	var pipe bytes.Buffer
	env = &Env{Stderr: &pipe}
	done = env.progress(false, "pulling")
	time.Sleep(progressDelay + 150*time.Millisecond)
	done()
	env = &Env{Stderr: tty}
	for _, quiet := range []func() func(){
		func() func() { return env.progress(true, "as --json") },
		func() func() { env.quiet = true; return env.progress(false, "as --quiet") },
	} {
		d := quiet()
		time.Sleep(progressDelay + 150*time.Millisecond)
		d()
	}
	if pipe.Len() != 0 {
		t.Errorf("progress on a pipe: %q", pipe.String())
	}
	if got := drain(t, control); got != "" {
		t.Errorf("progress with --json or --quiet: %q", got)
	}
}

// drain reads what the terminal has to show until it is quiet for 200 ms.
func drain(t *testing.T, control *os.File) string {
	t.Helper()
	var out []byte
	buf := make([]byte, 4096)
	for {
		if err := control.SetReadDeadline(time.Now().Add(200 * time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		n, err := control.Read(buf)
		out = append(out, buf[:n]...)
		if err != nil {
			return string(out)
		}
	}
}

// TestBuildProgressCountsOnTheStatusLine: a build of the read model shows
// its count of records on the status line, inside the work that caused it,
// and is erased when done; under --json it shows nothing.
func TestBuildProgressCountsOnTheStatusLine(t *testing.T) {
	control, tty := openTerminal(t)
	env := &Env{Stderr: tty}
	promoting := env.progress(false, "promoting a's records into global")
	build := &buildProgress{env: env}
	for n := 1; n <= 12345; n++ {
		build.Parsed(n)
	}
	time.Sleep(progressDelay + 250*time.Millisecond)
	build.Built()
	promoting()
	got := drain(t, control)
	if !strings.Contains(got, "planq: promoting a's records into global: reading records from git into the read model: 12,345") {
		t.Errorf("status line during a build: %q", got)
	}
	if !strings.HasSuffix(got, "\r\033[K") {
		t.Errorf("the status line is not erased at the end: %q", got)
	}

	quiet := &buildProgress{env: env, quiet: true}
	quiet.Parsed(1)
	time.Sleep(progressDelay + 150*time.Millisecond)
	quiet.Built()
	if got := drain(t, control); got != "" {
		t.Errorf("a build under --json showed %q", got)
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 50000: "50,000", 1234567: "1,234,567"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
