package planqerr

import (
	"errors"
	"fmt"
)

// Kind classifies an error for the exit code and for callers that react to it.
type Kind int

const (
	// Failure is anything not classified below: an I/O error, git failing.
	Failure Kind = iota
	// Invalid means the user's input was wrong: a bad name, a bad flag value,
	// a record that is too large.
	Invalid
	// NotFound means a named thing does not exist: an agent, a checkpoint.
	NotFound
	// Exists means the thing to create is already there.
	Exists
	// Busy means another process holds the lock long enough that we gave up.
	Busy
	// NotInitialized means the command runs outside a planq project.
	NotInitialized
	// Corrupt means stored data breaks the rules: malformed frontmatter, a
	// repository in a state planq cannot use.
	Corrupt
	// Refused means planq will not do it for safety: a credential in a record,
	// uncommitted code changes.
	Refused
)

// Error is an error about a subject (an agent, a file, a project) with an
// optional hint that tells the user what to do next.
type Error struct {
	Kind    Kind
	Subject string
	Err     error
	Hint    string
}

func (e *Error) Error() string {
	if e.Subject == "" {
		return e.Err.Error()
	}
	return e.Subject + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// New returns an Error of kind about subject with a formatted problem.
func New(kind Kind, subject, format string, args ...any) *Error {
	return &Error{Kind: kind, Subject: subject, Err: fmt.Errorf(format, args...)}
}

// WithHint returns e with hint attached; it reads well at construction sites.
func (e *Error) WithHint(format string, args ...any) *Error {
	e.Hint = fmt.Sprintf(format, args...)
	return e
}

// KindOf reports the kind of the first *Error in err's chain, or Failure.
func KindOf(err error) Kind {
	var pe *Error
	if errors.As(err, &pe) {
		return pe.Kind
	}
	return Failure
}

// Is reports whether err carries a planq error of the given kind.
func Is(err error, kind Kind) bool {
	var pe *Error
	return errors.As(err, &pe) && pe.Kind == kind
}
