// Package readmodel is planq's read side: every read of the records goes
// through it. It loads records from the state repository through a cache
// (records are immutable and named by their blob, so a cached record is
// never stale), and builds the views readers share: the changelog and its
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
// the same records, through the same cache, as every reader.
package readmodel
