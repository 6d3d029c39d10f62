// Package cli is planq's command line: cobra wiring and nothing else. Each
// command lives in its own file with an options struct, a constructor that
// declares its flags, and a run function that calls the domain packages and
// writes their results: data to stdout (plain, or JSON with --json), one line
// per change and every log to stderr. Exit codes are decided in exit.go.
package cli
