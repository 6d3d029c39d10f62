package scriptenv

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/rogpeppe/go-internal/testscript"
)

// Setup gives a script a HOME of its own, with testgit's gitconfig, and
// keeps out the variables that would point planq or git elsewhere.
func Setup(e *testscript.Env) error {
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

// Commands are the scripts' own commands, by name.
func Commands() map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	return map[string]func(ts *testscript.TestScript, neg bool, args []string){
		"exits":   Exits,
		"gitrepo": GitRepo,
		"genfile": GenFile,
		"age":     Age,
	}
}

// Exits is "exits N command args...": run command and require exit code N;
// its output is kept for the stdout/stderr checks that follow.
func Exits(ts *testscript.TestScript, neg bool, args []string) {
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

// GitRepo is "gitrepo DIR": make a git repository with one commit holding
// a README.
func GitRepo(ts *testscript.TestScript, neg bool, args []string) {
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

// GenFile is "genfile FILE SIZE [nul]": write SIZE bytes of text (with a
// NUL byte when asked).
func GenFile(ts *testscript.TestScript, neg bool, args []string) {
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

// Age is "age FILE MINUTES": make FILE look MINUTES old.
func Age(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: age FILE MINUTES")
	}
	m, err := strconv.Atoi(args[1])
	ts.Check(err)
	t := time.Now().Add(-time.Duration(m) * time.Minute)
	ts.Check(os.Chtimes(ts.MkAbs(args[0]), t, t))
}
