// Package agent is what planq does with one project's agents and records:
// it opens the state repository for writing (Store, which holds the
// project's read handle, readmodel.Handle, for what readers and writers
// read), finds an agent and its mounted worktree (Agent, whose
// readmodel.Ref is what a reader needs of it), and writes records, scratch
// notes, the current focus and checkpoints, each as one commit on the agent
// branch.
//
// Write stamps a record made by a changelog constructor with its ID, time
// and agent, and applies the one evidence default: a learning that names no
// commit is tied to HEAD (commit and branch) of the code checkout the agent
// is mounted in.
//
// Writers for one agent are serialised with a lock, so two planq processes
// writing at once both land; plain git in the same worktree is tolerated by
// compare-and-swap ref updates.
package agent
