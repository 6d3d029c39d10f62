package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/planq-dev/planq/planqerr"
)

// Exit codes, the only place they are decided. Documented in the README.
const (
	ExitOK             = 0   // success
	ExitFailure        = 1   // anything else: git failed, I/O failed, doctor or validate found problems
	ExitUsage          = 2   // bad flags or arguments, invalid names or values
	ExitNotInitialized = 3   // not in a git repository or not a planq project
	ExitNotFound       = 4   // a named agent, record or checkpoint does not exist
	ExitConflict       = 5   // it exists already, or another process holds the lock
	ExitInvalidData    = 6   // stored data breaks the rules: malformed records or config
	ExitRefused        = 7   // refused for safety: a credential, uncommitted code changes
	ExitInterrupted    = 130 // stopped by Ctrl-C or SIGTERM, as shells report it
)

// exitCode maps an error to the process exit code.
func exitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	var ue *usageError
	if errors.As(err, &ue) {
		return ExitUsage
	}
	switch planqerr.KindOf(err) {
	case planqerr.Failure:
		return ExitFailure
	case planqerr.Invalid:
		return ExitUsage
	case planqerr.NotInitialized:
		return ExitNotInitialized
	case planqerr.NotFound:
		return ExitNotFound
	case planqerr.Exists, planqerr.Busy:
		return ExitConflict
	case planqerr.Corrupt:
		return ExitInvalidData
	case planqerr.Refused:
		return ExitRefused
	}
	return ExitFailure
}

// usageError is a mistake in how the command was called.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

// silentError ends the command with a code, having said everything already.
type silentError struct{ code int }

func (e *silentError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// printError writes err as "planq: <subject>: <problem>" lines, then hints.
func printError(w io.Writer, err error) {
	var pe *planqerr.Error
	hint := ""
	if errors.As(err, &pe) {
		hint = pe.Hint
	}
	for _, line := range strings.Split(strings.TrimRight(err.Error(), "\n"), "\n") {
		fmt.Fprintf(w, "planq: %s\n", line)
	}
	if hint != "" {
		fmt.Fprintf(w, "planq: hint: %s\n", hint)
	}
}

// malformedHint tells what to do about malformed records.
const malformedHint = "fix the file in the .planq/agent of the agent that wrote it and commit; 'git log -p <file>' there shows how it changed"
