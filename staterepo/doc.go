// Package staterepo is the only package that knows how git is driven.
//
// A project's state lives in a bare repository; agents work in linked
// worktrees of it. The work is split between two engines, each used where it
// is safe:
//
//   - go-git, in process, reads refs and finds and stores objects (loose and
//     packed) straight in the object store; staterepo decodes and encodes the
//     trees and commits itself (gitobject.go), in git's exact form, so that no
//     command links go-git's object package and the OpenPGP behind it.
//     Objects are content-addressed and immutable, so writing them never races.
//   - the git binary (the Git type) does everything that must cooperate with
//     other git processes through git's lock files: every ref update (with the
//     expected old value, so a lost race is detected and retried), the index of
//     a worktree, worktree add/remove/prune, fetch, push and maintenance.
//
// Callers see staterepo's own types (Commit, File, WorktreeInfo, Hash): no
// go-git type but the object ID appears in its exported API, and a test
// keeps it so. Branch and ref names come from project's layout.
//
// go-git is always opened with EnableDotGitCommonDir so that a linked worktree
// reads and writes the shared repository, never a private copy.
package staterepo
