// Package lifecycle keeps the team's memory lean and true: it archives the
// learnings that outlived their shelf life and brings them back (Prune,
// Restore), finds duplicates and supersedes all but one (Dedupe), repairs
// what validate finds safe to repair (Fix, with package ringfix for
// supersedes rings), corrects a learning or decision with a new version
// (Edit), re-anchors one checked against the code (Revalidate), and turns
// mulch records into planq's (ImportMulch). Every change is one commit and
// nothing leaves history: archiving and superseding are records, never
// deletions.
package lifecycle
