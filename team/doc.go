// Package team is how agents learn from each other and teams share what
// they learned: promote (an agent's new learnings, decisions and branch
// context into global), pull and push of global through any git remote, and
// gc of agent branches that global already holds. It writes on global only
// as sync does: merges, and the files it regenerates from what global holds
// (changelog.md, PROJECT). What a lead writes there goes through the writer
// of global in package agent, which stamps and checks as an agent's does.
//
// Merges follow one policy, used by promote and pull alike:
//
//   - a path changed on one side takes that side; the same change on both
//     sides is taken once;
//   - a record is never deleted because it is absent: deletions are
//     tombstone records;
//   - a record both sides changed differently (only hand edits do that, as
//     records are immutable) keeps the version with the later timestamp, ties
//     broken by blob ID, the same whichever side merges; the other version
//     stays reachable through the merge commit's parents;
//   - other files (branch context) keep the version with the later
//     updated_at, ties broken by blob ID;
//   - promote carries the files the memory tool wrote (memories/) per path
//     too: an agent's change, deletion included, is taken where global
//     kept the merge base's version; where global changed the path too,
//     global keeps its version and the agent's lands beside it, named
//     with the agent (memories/repo/build.md from agent api lands at
//     memories/repo/build.api.md), so two agents' memories lose neither;
//   - the merge base is git's; when criss-cross merges left several, the
//     one whose hash sorts first, so both sides merge alike.
//
// No conflict marker is ever written. Every merge is a commit built in the
// bare repository and published with a compare-and-swap on the branch, so a
// merge that is interrupted or loses a race leaves global as it was.
package team
