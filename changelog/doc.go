// Package changelog is planq's record model: the kind table, one
// constructor per kind, strict parsing, validation, rendering, IDs, and
// where each record lives in the state tree.
//
// A record is one immutable Markdown file with YAML frontmatter, named by its
// ID, in a directory per kind, sharded so that adding a record rewrites only
// a small directory:
//
//	log/<YYYY-MM>/<id>.md          changelog entries
//	learnings/<domain>/<id>.md     learnings
//	decisions/<YYYY-MM>/<id>.md    decisions
//	handoffs/<YYYY-MM>/<id>.md     handoffs
//	checkpoints/<YYYY-MM>/<id>.md  checkpoint notes
//
// An edit is a new record that supersedes the old one; a deletion is a
// tombstone record. Nothing is inferred from a file's absence.
//
// # The kind table
//
// Everything planq knows about a kind is its row in the table (kind.go):
// its directory and shard rule, the types and statuses it allows, the
// kind-specific fields it may hold, the rules a table cannot say, and
// whether promote carries it, prime shows it and search looks through it.
// Validation, record paths, the state repository's skeleton, loading,
// search, promote, prime, the command line's flag help and the MCP
// server's input schemas all read the table; none switches on a kind with a
// default branch, and the exhaustive linter points at any switch that misses
// one.
//
// # Adding a record kind
//
//  1. kind.go: a Kind constant and a row in the table, naming the kind's
//     one-line form (forms.go; a test points at a row without one).
//  2. new.go: a constructor that applies the kind's defaults and refuses
//     what is missing, with planqerr errors and hints.
//  3. forms.go: the kind's one-line form, what every listing and commit
//     message shows of a record.
//  4. Where people and agents write it: a command file in cli (registered
//     in cli/root.go) and a tool in mcpserver/tools.go, each translating its
//     input into the constructor's.
//  5. The records table of the README.
//
// Nothing else needs an edit: cli's TestKindAddedToTableReachesEveryFrontEnd
// builds planq with one more row and no other change, and checks that the
// kind is validated, searched, listed in the command line's help and in the
// MCP schema, and given its directory in a new state repository.
package changelog
