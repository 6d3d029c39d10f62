// Package importing reads what other tools wrote in a checkout, files
// planq did not write and trusts no further than their shape: today the
// manifests at the top of a checkout that say what a project is made with
// (Stack: go.mod, package.json, Cargo.toml, pyproject.toml,
// requirements.txt, Gemfile, composer.json, and the files that name its
// tools).
//
// Every file is opened by one rule, internal/untrusted's: a regular file
// inside the given directory (links resolved, none out of it), under a
// size cap, never a FIFO or a device; a file that breaks it is not read,
// and the reader says less rather than fail.
package importing
