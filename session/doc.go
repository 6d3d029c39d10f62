// Package session is planq's project service: the one door every front
// end (the command line, the MCP server, the review page, the agent and
// git hooks) goes through. A front end opens a *Project (Open, or
// OpenStore for a long-lived server), turns its input into a method's
// input type, and presents what comes back; it never opens a store,
// resolves an agent or walks git itself, and a multi-step change (global
// moved, so the knowledge base is brought up to date) happens inside the
// method, whole.
//
// Its methods, by capability:
//
//   - Records: Learn, Decide, AddLog, Note, Record, Handoff and AckHandoff,
//     Checkpoint, WriteScratch, SetPlan, AddArtifact, WriteBranch,
//     Retract, Edit, Revalidate (record.go, record_edit.go,
//     record_files.go); a learning or decision with ScopeUser goes to the
//     user layer.
//   - Reads: Search (every Scope, across projects fused by rank), Get,
//     Query, Log, Show, Status, Context, Prime, Export, Dedupe, Validate,
//     Projects (read*.go, searchall.go, projects.go, prime.go).
//   - The team: Promote (and its dry run), PromoteToUser, Push, Pull,
//     remotes, GC, Prune, Restore (knowledge.go, team.go); curation:
//     Curate, Propose, proposals and their apply and dismiss (curate.go).
//   - The knowledge base: the KB* methods (kb.go).
//   - Workspaces and the person's layer: Init, InitState, Create, Remove,
//     Env, Doctor, the git hooks, the User* methods, Adopt, Memory (the
//     memory-tool protocol), ImportMulch (workspace.go, user.go,
//     memory.go, import.go); the model: Models, FetchModel (model.go).
//   - Around an agent's session: Save, RecordCommit, BranchSwitched
//     (session.go); what the project is made with is importing.Stack's.
//
// Scope (scope.go) has one meaning in every front end: agent, global,
// project, user, all.
package session
