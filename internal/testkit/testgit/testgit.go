package testgit

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Config is the gitconfig every test runs with.
const Config = "[user]\n\tname = Test User\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n"

// Vars are the environment variables that point git at home's config.
func Vars(home string) map[string]string {
	return map[string]string{
		"HOME":                home,
		"PLANQ_HOME":          filepath.Join(home, ".planq"),
		"GIT_CONFIG_GLOBAL":   filepath.Join(home, ".gitconfig"),
		"GIT_CONFIG_NOSYSTEM": "1",
	}
}

// WriteConfig writes Config as home's .gitconfig.
func WriteConfig(home string) error {
	return os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(Config), 0o644)
}

// Isolate gives the test a fresh HOME and PLANQ_HOME and points git at a
// config of its own for the rest of the test. It returns the HOME.
func Isolate(t testing.TB) string {
	t.Helper()
	home := t.TempDir()
	if err := WriteConfig(home); err != nil {
		t.Fatal(err)
	}
	for k, v := range Vars(home) {
		t.Setenv(k, v)
	}
	return home
}

// Run runs git in dir with the test's environment and returns its output,
// trimmed; the test fails when git does.
func Run(t testing.TB, dir string, args ...string) string {
	t.Helper()
	return RunEnv(t, nil, dir, args...)
}

// RunEnv is Run with env as git's whole environment (nil: the test's).
func RunEnv(t testing.TB, env []string, dir string, args ...string) string {
	t.Helper()
	out, code, stderr := git(env, dir, args)
	if code != 0 {
		t.Fatalf("git %s (in %s): exit %d\n%s", strings.Join(args, " "), dir, code, stderr)
	}
	return out
}

// Exit runs git like RunEnv, for commands whose exit code is the answer
// (git grep: 1 is "no match"). It fails the test only when git could not
// run or said it failed (an exit code above 1).
func Exit(t testing.TB, env []string, dir string, args ...string) (string, int) {
	t.Helper()
	out, code, stderr := git(env, dir, args)
	if code != 0 && code != 1 {
		t.Fatalf("git %s (in %s): exit %d\n%s", strings.Join(args, " "), dir, code, stderr)
	}
	return out, code
}

// git runs git and returns its trimmed stdout, its exit code (-1 when it
// could not run) and its stderr.
func git(env []string, dir string, args []string) (string, int, string) {
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = dir, env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if cmd.ProcessState == nil { // git did not start
		return "", -1, err.Error()
	}
	return strings.TrimSpace(string(out)), cmd.ProcessState.ExitCode(), stderr.String()
}

// RunIsolated runs a test binary's tests with a fresh HOME and git config
// for the whole process, for tests that run in parallel (which may not set
// variables of their own): call it from TestMain.
func RunIsolated(m *testing.M) int {
	home, err := os.MkdirTemp("", "planq-test-home-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(home)
	if err := WriteConfig(home); err != nil {
		panic(err)
	}
	for k, v := range Vars(home) {
		os.Setenv(k, v)
	}
	return m.Run()
}
