//go:build !windows

package atomicfile

import (
	"os"
	"path/filepath"
	"time"

	"github.com/google/renameio/v2"
)

// WriteFile replaces the file at path with data, atomically: a reader sees
// the old content or the new, never part of it. A new file gets perm (less
// the umask); an existing one keeps its permissions.
//
// The temporary file is made beside path: without a directory, renameio
// first probes whether the system's temporary directory shares path's
// file system (two files made, one renamed, both removed), on every write.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	return renameio.WriteFile(path, data, perm, renameio.WithTempDir(filepath.Dir(path)))
}

// renameAttempts is how many times renameRetrying tries: on Unix a rename
// that fails fails for good.
const renameAttempts = 1

// renameBackoff is the pause between attempts.
const renameBackoff = time.Duration(0)
