package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planq-dev/planq/hooks"
	"github.com/planq-dev/planq/internal/embed"
	"github.com/planq-dev/planq/internal/failpoint"
	"github.com/planq-dev/planq/internal/jsonedit"
	"github.com/planq-dev/planq/internal/netpost"
	"github.com/planq-dev/planq/internal/testkit/scriptenv"
	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	failpoint.Enable() // this test binary is planq in the tests that crash it
	testscript.Main(m, map[string]func(){
		"planq": func() { os.Exit(runRecordingHints(nil)) },
		"planq-server": func() {
			embed.Network = embed.Net{Post: netpost.Post, Get: netpost.Get} // as cmd/planq-server's main
			hooks.JSON = jsonedit.Editor{}
			os.Exit(runRecordingHints(&testServers))
		},
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

// scriptCommands are scriptenv's commands and the model fetch's: a hub
// serving a model the script makes.
func scriptCommands() map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	cmds := scriptenv.Commands()
	cmds["tinymodel"], cmds["hub"] = cmdTinyModel, cmdHub
	return cmds
}

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
			return scriptenv.Setup(e)
		},
		Cmds: scriptCommands(),
	})
}
