// Package importing reads what other tools wrote in a checkout, files
// planq did not write and trusts no further than their shape:
//
//   - the sources a knowledge base is bootstrapped from (Read, Sources):
//     decisions stated in the code's git history and its reverts,
//     architecture decision records (Nygard's and MADR), the instruction
//     files' bullets and sections, Claude Code's and Codex's memories of
//     the project, and what their session transcripts clearly meant to
//     keep; each piece a record planq would write, with an origin that
//     names where it was read, and each piece it could not take named
//     (Skip);
//   - the manifests at the top of a checkout that say what a project is
//     made with (Stack: go.mod, package.json, Cargo.toml, pyproject.toml,
//     requirements.txt, Gemfile, composer.json, and the files that name
//     its tools).
//
// Every file is opened by one rule, internal/untrusted's: a regular file
// inside the given directory (links resolved, none out of it), under a
// size cap, never a FIFO or a device; a file that breaks it is not read,
// and the reader says less rather than fail.
package importing
