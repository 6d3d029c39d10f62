// Package brief assembles what an agent reads about a project's memory: the
// structured summary of `planq context show` (scratch, focus, recent log,
// decisions, learnings, pending handoff, code branch) and the changelog views
// of `planq log`. The command line, the MCP server and the hooks all read
// through here, so each shows the same thing.
package brief
