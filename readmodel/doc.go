// Package readmodel is planq's read side: every read of the records goes
// through it. Its engine (internal/engine, which no other package may
// import) keeps one read model under the cache directory, all of it named
// by what git names (so never stale) and rebuilt from git when missing or
// damaged: segments of each shard's records as fixed-width rows ahead of
// the records themselves, listings of the commits, ID orders and other
// view files, and as-of pinning.
//
// On it, it builds the views readers share: the changelog and its
// active-agents table, the team's ranked learnings and decisions, an agent's
// own records and pending handoff, the agents listing, search and get. A
// record's one-line form is the record model's (changelog.Record.Line).
//
// Loading never fails because of a malformed record: a Set carries the
// records that could be read and, as data, the files that could not, so one
// bad file never hides an agent's memory and every front end can report it.
//
// The front ends (cli, mcpserver) and the documents (prime) only format what
// comes from here. The write side (agent, team) reads through it too before
// it writes: promote's duplicate check and a handoff's acknowledgement read
// the same records, through the same read model, as every reader.
package readmodel
