// Package memtool carries out the memory-tool protocol (the commands an
// application built on the Claude API runs for its model's memory tool,
// memory_20250818, and that VS Code's Copilot memory tool uses under
// /memories/repo and /memories/session): view, create, str_replace,
// insert, delete and rename, on paths under /memories.
//
// The protocol is one more front end over a memories/ folder: /memories
// maps to it, nothing outside it is ever read or written, every change is
// one commit and no view makes one, a file is replaced atomically, and
// what a file may hold is checked as every record is (size, binary text,
// credentials). Answers are the protocol's own texts, success and error,
// because the models that call the tool were trained on them (texts.go
// names where each comes from).
//
// A Folder is where the commands apply: the memories/ of a checkout, the
// lock that serialises its writers and how a change is committed.
// ForAgent makes the folder of an agent's state worktree; another layer
// (a user's own state repository) is one more constructor.
//
// Role: write side. It imports agent (the lock, the worktree, the check
// every record passes) and nothing above it.
package memtool
