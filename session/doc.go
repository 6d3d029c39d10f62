// Package session holds what happens around an agent's session, each as one
// function that every front end calls: the agent hooks (planq hook), the
// git hooks (planq githook run), the command line and the MCP server.
//
//   - Prime: what an agent is told when a session starts (or resumes after a
//     compaction): open the project's store, find the agent, gather what the
//     document shows, and have package prime build it within a budget.
//   - Summary: what an agent needs to pick up its work (context show).
//   - Save: commit the agent's pending state before a compaction, at the end
//     of a session, or when the agent stops.
//   - RecordCommit: write the code commit just made as a log entry of the
//     agent mounted in the checkout.
//   - BranchSwitched: the context of the code branch just checked out.
//   - Search, Get and Query: a search (scope, stale marks, noted uses), the
//     read of one record or note (where it stands, noted use), and a
//     domain's learnings (stale marks), through the project's read handle;
//     planq search, get and query and their MCP tools only translate their
//     input and format what comes back.
//
// The front ends turn their inputs into these calls and format what comes
// back; none of them opens stores or resolves agents on its own.
package session
