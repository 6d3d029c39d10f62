// Package changelog is planq's record model: the kinds of record, their
// frontmatter schema, strict parsing and validation, rendering, IDs, where
// each record lives in the state tree, and loading many records fast.
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
package changelog
