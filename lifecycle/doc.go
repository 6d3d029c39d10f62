// Package lifecycle keeps the team's memory lean and true: it archives the
// learnings that outlived their shelf life and brings them back, finds
// duplicates and supersedes all but one, and repairs what validate finds
// safe to repair. Every change is one commit and nothing leaves history:
// archiving and superseding are records, never deletions.
package lifecycle
