// Package cli is planq's command line: cobra wiring and nothing else. Each
// command lives in its own file with an options struct, a constructor that
// declares its flags, and a run function that calls the domain packages and
// writes their results: data to stdout (plain, or JSON with --json), one line
// per change and every log to stderr. Exit codes are decided in exit.go.
//
// Two binaries run it: planq (cmd/planq) and planq-server
// (cmd/planq-server), which links in the MCP server and the review page
// through Servers, and the network (embed.Network) and the JSON settings
// editor (hooks.JSON) as package values. planq hands their commands to
// planq-server (servers.go), so that what agents and hooks start many times
// a day does not initialise the libraries only those need.
//
// # Adding a command
//
//  1. cli/<command>.go: an xOptions struct, newXCmd(env) declaring the
//     flags (RunE two or three lines), and runX(ctx, env, opts) that calls
//     one method of the project service (env.service(), package session) and
//     formats what comes back. A listing gets --json with its shape in Long.
//  2. cli/root.go: add it to its help group.
//  3. cli/testdata/script/<command>.txtar: what it does, end to end.
//  4. When agents need it: one tool in mcpserver calling the same method,
//     with the same input type.
//  5. The README, where users look for it.
package cli
