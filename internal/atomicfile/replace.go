package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// replaceByRename writes data to a new file beside path, syncs it, and
// renames it over path. The rename is the only step a reader can observe.
// On failure the temporary file is removed and path is left as it was.
func replaceByRename(path string, data []byte, perm os.FileMode) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return fmt.Errorf("failed to create a temporary file for %s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(tmp)
		}
	}()
	if err := f.Chmod(perm); err != nil {
		return fmt.Errorf("failed to set the mode of %s: %w", tmp, err)
	}
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("failed to write %s: %w", tmp, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("failed to sync %s: %w", tmp, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("failed to close %s: %w", tmp, err)
	}
	if err := renameRetrying(tmp, path, renameAttempts, renameBackoff); err != nil {
		return fmt.Errorf("failed to replace %s: %w", path, err)
	}
	return nil
}

// renameRetrying renames from to to, trying up to attempts times, with a
// pause between tries that starts at pause and doubles.
func renameRetrying(from, to string, attempts int, pause time.Duration) error {
	for attempt := 1; ; attempt++ {
		err := os.Rename(from, to)
		if err == nil || attempt >= attempts {
			return err
		}
		time.Sleep(pause)
		pause *= 2
	}
}
