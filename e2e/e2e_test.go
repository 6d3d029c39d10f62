package e2e

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/planq-dev/planq/internal/testkit/fakeembed"
	"github.com/planq-dev/planq/internal/testkit/scriptenv"
)

// moduleRoot is the top of planq's source, this package's parent (go test
// runs a package's tests in its directory).
var moduleRoot = func() string {
	root, err := filepath.Abs("..")
	if err != nil {
		panic(err)
	}
	return root
}()

// built builds planq and planq-server once, for every test that runs them,
// into a directory removed when the tests end (TestMain).
var built = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "planq-e2e-")
	if err != nil {
		return "", err
	}
	builtDir = dir
	build := exec.Command("go", "build", "-o", dir+string(os.PathSeparator), "./cmd/planq", "./cmd/planq-server")
	build.Dir = moduleRoot
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building planq and planq-server: %w\n%s", err, out)
	}
	return dir, nil
})

// builtDir is built's directory, once made.
var builtDir string

func TestMain(m *testing.M) {
	code := m.Run()
	if builtDir != "" {
		_ = os.RemoveAll(builtDir)
	}
	os.Exit(code)
}

// binDir is where the built planq and planq-server are.
func binDir(t *testing.T) string {
	t.Helper()
	dir, err := built()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestScripts runs the scripts in testdata/script against the built planq:
// one fresh HOME, PLANQ_HOME and gitconfig per script.
func TestScripts(t *testing.T) {
	bin := binDir(t)
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Setup: func(e *testscript.Env) error {
			e.Setenv("PATH", bin+string(os.PathListSeparator)+e.Getenv("PATH"))
			return scriptenv.Setup(e)
		},
		Cmds: commands(),
	})
}

// commands are scriptenv's, and endpoint.
func commands() map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	cmds := scriptenv.Commands()
	cmds["endpoint"] = cmdEndpoint
	return cmds
}

// cmdEndpoint starts, for the rest of the script, an OpenAI-compatible
// embeddings endpoint whose base URL is $ENDPOINT (fakeembed: texts of the
// same words are near). It counts the calls it answered in
// $WORK/endpoint-calls, and the connections they came on in
// $WORK/endpoint-connections.
func cmdEndpoint(ts *testscript.TestScript, neg bool, _ []string) {
	if neg {
		ts.Fatalf("unsupported: ! endpoint")
	}
	var calls, conns atomic.Int64
	callsFile := filepath.Join(ts.Getenv("WORK"), "endpoint-calls")
	connsFile := filepath.Join(ts.Getenv("WORK"), "endpoint-connections")
	srv := httptest.NewUnstartedServer(fakeembed.Handler(func() {
		_ = os.WriteFile(callsFile, []byte(strconv.FormatInt(calls.Add(1), 10)+"\n"), 0o644)
	}))
	srv.Config.ConnState = func(_ net.Conn, state http.ConnState) {
		if state == http.StateNew {
			_ = os.WriteFile(connsFile, []byte(strconv.FormatInt(conns.Add(1), 10)+"\n"), 0o644)
		}
	}
	srv.Start()
	ts.Defer(srv.Close)
	ts.Setenv("ENDPOINT", srv.URL+"/v1")
}
