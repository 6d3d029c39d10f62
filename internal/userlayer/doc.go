// Package userlayer is the user layer: one more state repository under
// PLANQ_HOME (project.UserLayerName, a name no project can take) that holds
// what a person keeps across projects: their preferences (learnings of the
// preferences domain), and the learnings and decisions they chose to carry
// from one project to the next.
//
// It has the record model of a project's global, written through global's
// writer (agent.Store.CommitGlobal: the same stamp, validation, size and
// credential checks as every record), read through the same read model, and
// synced through its own remote ($PLANQ_HOME/user.yaml) with the team
// package's push and pull. Nothing crosses between a project and the user
// layer unless a person asks: promote --to user, adopt, learn --scope user.
// Its records are edited, revalidated and retracted as a project's are, one
// commit on its global each (versions.go). It keeps no credential: unlike a
// project's writers, none of its writers takes an allowance for one.
//
// Role: write side. It imports agent and team, and nothing above them.
package userlayer
