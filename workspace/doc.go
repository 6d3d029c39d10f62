// Package workspace sets planq up in a code repository and manages the life
// of agents across the two repositories involved: `planq init` (config, state
// repository, exclude entry), `planq create` (code workspace, agent branch,
// mounted state worktree), `planq remove`, `planq list`, the environment an
// agent runs with, and `planq doctor`.
//
// Every operation that spans several steps undoes its earlier steps when a
// later one fails, so a failure leaves nothing half-made.
package workspace
