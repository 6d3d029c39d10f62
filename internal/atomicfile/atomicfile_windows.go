//go:build windows

package atomicfile

import (
	"os"
	"time"
)

// WriteFile replaces the file at path with data: a reader sees the old
// content or the new, never part of it. Windows keeps no Unix permission
// bits, so perm only decides whether a new file is read-only.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	return replaceByRename(path, data, perm)
}

// renameAttempts is how many times renameRetrying tries. On Windows a
// rename fails while another process (a virus scanner, an indexer, an
// editor) holds the target open without sharing deletion; it lets go
// within moments.
const renameAttempts = 10

// renameBackoff is the pause before the second attempt; it doubles after.
const renameBackoff = 10 * time.Millisecond
