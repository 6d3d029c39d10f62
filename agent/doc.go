// Package agent is what planq does with one project's agents and records:
// it opens the state repository for writing (Store, which holds the
// project's read handle, readmodel.Handle, for what readers and writers
// read), finds an agent and its mounted worktree (Agent, whose
// readmodel.Ref is what a reader needs of it), and writes records, scratch
// notes, the current focus and checkpoints, each as one commit on the agent
// branch. It is also the writer of global (Store.CommitGlobal,
// Store.SetPlan): what a lead writes there (proposals, the states of
// proposals and notes, prune's archive records, restores, the plan) without
// an agent's worktree; team keeps sync (promote, pull, push, gc).
//
// Every record, on an agent branch or on global, is stamped by one function
// (Stamp: ID, time, writer) and passes one check (Store.check: valid,
// rendered, guarded against size, binary text and credentials) before its
// file is written. On an agent branch, Write also applies the one evidence
// default: a learning that names no commit is tied to HEAD (commit and
// branch) of the code checkout the agent is mounted in.
//
// Writers for one agent are serialised with a lock, so two planq processes
// writing at once both land; plain git in the same worktree is tolerated by
// compare-and-swap ref updates.
package agent
