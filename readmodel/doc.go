// Package readmodel is planq's read side: every read of the records goes
// through it. It keeps one read model under the cache directory, all of it
// named by what git names (so never stale) and rebuilt from git when
// missing or damaged:
//
//   - segments: each shard's records, parsed once per tree of the shard, as
//     fixed-width rows (what views sort and filter on) ahead of the records
//     themselves, which are decoded only when shown (segment.go);
//   - listings: the top of each tip's tree and its small files, so that a
//     warm read never opens git's pack index (listing.go).
//
// On it, it builds the views readers share: the changelog and its
// active-agents table, the team's ranked learnings and decisions, an agent's
// own records and pending handoff, the agents listing, search and get, and a
// record's one-line form.
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
