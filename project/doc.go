// Package project finds the planq project a command runs in and knows where
// everything of that project lives.
//
// A project is a code repository with a tracked .planq/config. Its state lives
// outside the code, under PLANQ_HOME (default ~/.planq):
//
//	$PLANQ_HOME/state-repos/<project>.git   the bare state repository
//	$PLANQ_HOME/workspaces/<project>/<agent> code workspaces made by `planq create`
//	$PLANQ_HOME/cache/<project>/             caches that can always be rebuilt
//	$PLANQ_HOME/uses/<project>/<agent>.log   uses noted by reads, until the agent's next commit
//	$PLANQ_HOME/orphans/<project>/           what doctor moved aside after a crash
//	$PLANQ_HOME/models/                      fetched models, and .tables/ converted from them
//	$PLANQ_HOME/state-repos/_user.git        the user layer, yours across projects
//
// Every one of these paths is named here and nowhere else.
//
// The state repository's own layout, every branch, ref and tree name planq
// uses (global, agent-<name>, checkpoint tags, archive and remote refs,
// scratch.md, context.md, branches/), is named in layout.go and nowhere
// else; record directories are rows of changelog's kind table.
//
// Discovery walks up from a directory to the nearest .planq/config; in a linked
// worktree of the code repo whose config is not committed yet it falls back to
// the main worktree's config, so every workspace of a repository is one project.
package project
