package staterepo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
)

// Git runs the git binary in one directory. It is the single place where
// planq starts git processes.
type Git struct {
	// Dir is the working directory of the git process.
	Dir string
}

// gitEnv is the environment of every git process (envFor).
var gitEnv = envFor(os.Environ())

// envFor is the environment of git made from environ: the user's, minus
// variables that would point git at another repository. Git hooks export
// GIT_DIR and friends, and a planq called from a code repo's hook must not
// act on it.
func envFor(environ []string) []string {
	drop := map[string]bool{
		"GIT_DIR": true, "GIT_WORK_TREE": true, "GIT_INDEX_FILE": true,
		"GIT_OBJECT_DIRECTORY": true, "GIT_ALTERNATE_OBJECT_DIRECTORIES": true,
		"GIT_COMMON_DIR": true, "GIT_PREFIX": true, "GIT_NAMESPACE": true,
		"GIT_CEILING_DIRECTORIES": true, "GIT_QUARANTINE_PATH": true,
		"LC_ALL": true, "LANGUAGE": true,
	}
	var env []string
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		switch {
		case drop[name]:
		case name == "GIT_ALLOW_PROTOCOL":
			// It overrides git's configuration, planq's -c included
			// (refusedTransports): what it allows is kept, less those.
			env = append(env, name+"="+strings.Join(slices.DeleteFunc(strings.Split(value, ":"), refusedTransport), ":"))
		default:
			env = append(env, kv)
		}
	}
	// Messages are parsed in a few places; keep them in one language.
	return append(env, "LC_ALL=C", "GIT_TERMINAL_PROMPT=0")
}

// GitError is a failed git command with what git said on stderr.
type GitError struct {
	Args   []string
	Stderr string
	Err    error
}

func (e *GitError) Error() string {
	msg := strings.TrimSpace(e.Stderr)
	if msg == "" {
		msg = e.Err.Error()
	}
	// git's last line is the one that says what went wrong.
	if i := strings.LastIndex(msg, "\n"); i >= 0 {
		msg = strings.TrimSpace(msg[i+1:])
	}
	return fmt.Sprintf("git %s: %s", strings.Join(e.Args, " "), msg)
}

func (e *GitError) Unwrap() error { return e.Err }

// Run runs git with args and returns its trimmed stdout.
func (g Git) Run(ctx context.Context, args ...string) (string, error) {
	out, err := g.RunInput(ctx, nil, args...)
	return strings.TrimRight(string(out), "\n"), err
}

// RunInput runs git with stdin and returns its raw stdout.
func (g Git) RunInput(ctx context.Context, stdin io.Reader, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = g.Dir
	cmd.Env = gitEnv
	cmd.Stdin = stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return nil, fmt.Errorf("git is not installed or not on PATH: %w", err)
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("git %s: %w", subcommand(args), ctx.Err())
		}
		return stdout.Bytes(), &GitError{Args: args, Stderr: stderr.String(), Err: err}
	}
	return stdout.Bytes(), nil
}

// subcommand is the git command args run, after the configuration given
// with -c (transport's).
func subcommand(args []string) string {
	for len(args) > 2 && args[0] == "-c" {
		args = args[2:]
	}
	if len(args) == 0 {
		return ""
	}
	return args[0]
}

// stderrContains reports whether err is a git failure whose message has s.
func stderrContains(err error, s string) bool {
	var ge *GitError
	return errors.As(err, &ge) && strings.Contains(ge.Stderr, s)
}
