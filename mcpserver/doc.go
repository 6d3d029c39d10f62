// Package mcpserver serves planq to coding agents over the Model Context
// Protocol (stdio), with the official Go SDK. Its tools are the command
// line's operations, through the same project service (package session):
// the context (planq_context), scratch notes, log entries, learnings,
// decisions, checkpoints, handoffs and notes (planq_scratch, planq_log,
// planq_learn, planq_decide, planq_checkpoint, planq_handoff, planq_note,
// planq_record), corrections (planq_edit, planq_retract, planq_revalidate),
// reads (planq_search, planq_get, planq_query), the knowledge base
// (planq_kb), curation (planq_curate, planq_propose) and, when asked for,
// the memory-tool protocol (planq_memory). Every tool carries the
// annotations MCP defines, so a client knows which only read and which
// destroy; their descriptions and input schemas together stay within the
// budget surface_test.go holds them to.
//
// The server finds its project from an explicit directory (the --project
// flag, else the agent's project-directory variable) and only falls back to
// its working directory when that is a planq project. Bad arguments are
// answered with tool errors, and a line that is not JSON-RPC with its
// error response; the server keeps serving.
package mcpserver
