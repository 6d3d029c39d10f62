// Package prime builds the documents an agent is given. Summary is what
// `planq context show` and the MCP server's planq_context return: focus,
// scratch, branch context, the agent's recent work and the team's memory.
// Document is what an agent is told when a session starts: its focus and
// pending handoff, the context of its code branch, the project's learnings
// by priority, recent decisions, what other agents did, and how to record.
// A lead gets what awaits promotion and what is disputed instead.
//
// The records come from the read model (readmodel), ranked and in their
// one-line form there; prime only chooses and lays out.
//
// A Document is a list of items, each with a priority. When it does not fit
// the budget (Claude Code keeps 10,000 characters of hook output), the least
// important items go first and a closing line says how many went and the
// exact command that shows them. The same document serves `planq prime`, the
// session hooks and the MCP server, through package session.
package prime
