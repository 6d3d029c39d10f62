// Package prime builds the documents an agent is given, from plain data: it
// reads nothing, so its tests need no repository. Summary is what
// `planq context show` and the MCP server's planq_context return: focus,
// scratch, branch context, and the read model's view of the agent's records
// and the team's. Document is what an agent is told when a session starts:
// its focus and pending handoff, the context of its code branch, the
// project's learnings by priority, recent decisions, what other agents did,
// and how to record. A lead gets what awaits promotion, what is disputed,
// the proposals to review and the domains that need attention too.
//
// Package session gathers the Input (session.Project.Prime) and calls Build; the
// records come from the read model (readmodel), ranked and in their
// one-line form there; prime only chooses and lays out.
//
// A Document is a list of items, each with a priority. When it does not fit
// the budget (Claude Code keeps 10,000 characters of hook output), the least
// important items go first and a closing line says how many went and the
// exact command that shows them. The same document serves `planq prime`, the
// session hooks and the MCP server, through package session.
package prime
