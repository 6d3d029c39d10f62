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
// A kind whose fields of its own are plain strings or lists of strings
// needs no code: its row says all there is to it, and 'planq record KIND'
// and MCP's planq_record write it. It takes three files:
//
//  1. changelog/kind.go: a row in the table, with Generic set and the
//     kind's fields of its own in Extra (key, string or list, required,
//     what it holds for the flag's help and the MCP schema).
//  2. README.md: the kind in the records table, with its fields.
//  3. cli/testdata/script/<kind>.txtar: a script that writes it from the
//     command line, then reads, searches and validates it.
//
// Parsing (strictly: a key of another kind or of none is refused, at its
// line), validation, rendering, JSON, the record cache's codec, search, the
// state repository's skeleton, the command line ('planq record KIND', a
// flag per field) and the MCP server (planq_record and its schema) learn
// the kind from its row. cli's TestKindAddedToTableReachesEveryFrontEnd
// builds planq from this source with such a row (a kind with one field of
// its own) and no other change, and checks each of them, and that the
// files it changes are those this list names.
//
// A kind that needs more than its row says:
//
//   - a Kind constant in kind.go, when Go code names the kind;
//   - rules a table cannot say: a check function in its row;
//   - a one-line form of its own: a line function in its row, in forms.go;
//   - defaults and refusals of its own: a constructor in new.go, in place
//     of Generic;
//   - a field of a richer type (a struct, a map): a Record field in
//     record.go, its Field in kind.go's fieldSet, and its encoding in
//     readmodel/internal/engine/codec.go, with segment.go's SegmentVersion
//     bumped so that caches rebuild;
//   - a command of its own name: a file in cli registered in cli/root.go,
//     and a tool in a file of mcpserver registered in tools.go's register,
//     each translating its input into the constructor's.
package changelog
