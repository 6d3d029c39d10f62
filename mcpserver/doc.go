// Package mcpserver serves planq to coding agents over the Model Context
// Protocol (stdio), with the official Go SDK. Its tools are the same
// operations as the command line, on the same packages: read the context,
// write scratch notes, log entries, learnings, decisions, checkpoints and
// handoffs, search the records, and read one record's lines. Every tool
// carries the annotations MCP defines, so a client knows which only read
// and that none destroys but planq_scratch's replace; their descriptions
// and input schemas together stay under 10,000 characters.
//
// The server finds its project from an explicit directory (the --project
// flag, else the agent's project-directory variable) and only falls back to
// its working directory when that is a planq project. Bad arguments are
// answered with tool errors; the server keeps serving.
package mcpserver
