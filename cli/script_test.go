package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/planq-dev/planq/internal/failpoint"
	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	failpoint.Enable() // this test binary is planq in the tests that crash it
	testscript.Main(m, map[string]func(){
		"planq":        func() { os.Exit(runRecordingHints(nil)) },
		"planq-server": func() { os.Exit(runRecordingHints(&testServers)) },
	})
}

// hintsVar names the file where the scripts' planq processes record every
// hint they print, for TestScripts to check once all scripts ran.
const hintsVar = "PLANQ_TEST_HINTS"

// runRecordingHints is Main (MainServing with servers) with its stderr
// also scanned for hint lines.
func runRecordingHints(servers *Servers) int {
	rec := &hintRecorder{path: os.Getenv(hintsVar)}
	code := run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, io.MultiWriter(os.Stderr, rec), launch{catchInterrupts: true, servers: servers})
	rec.flush()
	return code
}

// hintRecorder appends the hint lines written through it to a file.
type hintRecorder struct {
	path string
	buf  bytes.Buffer
}

func (h *hintRecorder) Write(p []byte) (int, error) {
	h.buf.Write(p)
	return len(p), nil
}

func (h *hintRecorder) flush() {
	if h.path == "" {
		return
	}
	var hints []byte
	for _, line := range strings.Split(h.buf.String(), "\n") {
		if _, hint, ok := strings.Cut(line, "planq: hint: "); ok {
			hints = append(hints, hint+"\n"...)
		} else if i := strings.Index(line, "hint="); i >= 0 && strings.Contains(line, "planq") {
			hints = append(hints, strings.Trim(line[i+len("hint="):], `"`)+"\n"...)
		}
	}
	if len(hints) == 0 {
		return
	}
	f, err := os.OpenFile(h.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return
	}
	_, _ = f.Write(hints) // one write: concurrent scripts append whole lines
	_ = f.Close()
}

// TestScripts runs the end-to-end scripts in testdata/script: the real
// planq binary against real git, one fresh HOME, PLANQ_HOME and gitconfig
// per script.
func TestScripts(t *testing.T) { runScripts(t, "testdata/script") }

// TestHostileInputs replays the hostile inputs planq was fed, one script
// per input or family of inputs in testdata/hostile: each asserts the exit
// code, the message, and that nothing the user wrote was lost.
func TestHostileInputs(t *testing.T) { runScripts(t, "testdata/hostile") }

func runScripts(t *testing.T, dir string) {
	hints := filepath.Join(t.TempDir(), "hints")
	// After every script: each command a hint names must be one planq
	// accepts as printed.
	t.Cleanup(func() { checkHints(t, hints) })
	testscript.Run(t, testscript.Params{
		Dir:                 dir,
		RequireExplicitExec: true,
		Setup: func(e *testscript.Env) error {
			e.Setenv(hintsVar, hints)
			return setupScriptEnv(e)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":   cmdExits,
			"gitrepo": cmdGitRepo,
			"genfile": cmdGenFile,
			"age":     cmdAge,
			// model fetch: a hub serving a model the script makes
			"tinymodel": cmdTinyModel,
			"hub":       cmdHub,
		},
	})
}

func setupScriptEnv(e *testscript.Env) error {
	home := filepath.Join(e.WorkDir, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return err
	}
	if err := testgit.WriteConfig(home); err != nil {
		return err
	}
	for k, v := range testgit.Vars(home) {
		e.Setenv(k, v)
	}
	e.Setenv("TZ", "UTC")
	e.Setenv("NO_COLOR", "1")
	// Variables that would point planq or git elsewhere must not leak in.
	kept := e.Vars[:0]
	for _, kv := range e.Vars {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, "PLANQ_AGENT") && !strings.HasPrefix(name, "GIT_DIR") && name != "GIT_WORK_TREE" && name != "GIT_INDEX_FILE" {
			kept = append(kept, kv)
		}
	}
	e.Vars = kept
	return nil
}

// exits N command args...: run command and require exit code N; its output
// is kept for the stdout/stderr checks that follow.
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE command [args...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		ts.Fatalf("%v", err)
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}

// gitrepo DIR: make a git repository with one commit holding a README.
func cmdGitRepo(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: gitrepo DIR")
	}
	dir := ts.MkAbs(args[0])
	ts.Check(os.MkdirAll(dir, 0o755))
	ts.Check(os.WriteFile(filepath.Join(dir, "README.md"), []byte("# demo\n"), 0o644))
	for _, c := range [][]string{{"init", "-q"}, {"add", "."}, {"commit", "-q", "-m", "initial"}} {
		if err := ts.Exec("git", append([]string{"-C", dir}, c...)...); err != nil {
			ts.Fatalf("git %v: %v", c, err)
		}
	}
}

// genfile FILE SIZE [nul]: write SIZE bytes of text (with a NUL byte when asked).
func cmdGenFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: genfile FILE SIZE [nul]")
	}
	size, err := strconv.Atoi(args[1])
	ts.Check(err)
	data := bytes.Repeat([]byte("planq "), size/6+1)[:size]
	if len(args) > 2 && args[2] == "nul" {
		data[size/2] = 0
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), data, 0o644))
}

// age FILE MINUTES: make FILE look MINUTES old.
func cmdAge(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: age FILE MINUTES")
	}
	m, err := strconv.Atoi(args[1])
	ts.Check(err)
	t := time.Now().Add(-time.Duration(m) * time.Minute)
	ts.Check(os.Chtimes(ts.MkAbs(args[0]), t, t))
}
