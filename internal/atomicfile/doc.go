// Package atomicfile writes a file so that a reader sees either its old
// content or its new content, never a half-written one, on every platform
// planq runs on.
//
// On Unix, [WriteFile] is renameio's: a temporary file beside the target,
// synced and renamed over it, keeping the target's permissions. Windows has
// no atomic replace a program can count on, and renameio does not offer
// WriteFile there; planq does the same dance with os.Rename, which on
// Windows replaces the target in one call (MoveFileEx with
// MOVEFILE_REPLACE_EXISTING). A reader never sees a truncated file, which
// os.WriteFile (truncate, then write) would show it.
//
// Role: a leaf. It imports nothing of planq's.
package atomicfile
