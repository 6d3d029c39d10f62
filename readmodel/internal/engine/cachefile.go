package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// writeCacheFile replaces file with data atomically: a reader sees the old
// file or the new one, never part of one. Unlike the records it mirrors, a
// cache file is not synced to disk: a power cut may leave it cut short or
// empty, which its checksum or length shows, and it is rebuilt from git.
// Syncing would cost a disk flush per segment that a command builds.
func writeCacheFile(file string, data []byte) error {
	dir := filepath.Dir(file)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("failed to create cache directory: %w", err)
	}
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return fmt.Errorf("failed to write cache: %w", err)
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), file)
	}
	if err != nil {
		_ = os.Remove(f.Name()) // the temporary file, not the cache
		return fmt.Errorf("failed to write cache: %w", err)
	}
	return nil
}

// newestFile is the name of the most recently written file of dir whose
// name ends in ext; "" when there is none: what a cache of a new tree
// (a segment, vectors, a document set) starts from.
func newestFile(dir, ext string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	var best string
	var bestAt time.Time
	for _, e := range entries {
		if info, err := e.Info(); err == nil && filepath.Ext(e.Name()) == ext && info.ModTime().After(bestAt) {
			best, bestAt = e.Name(), info.ModTime()
		}
	}
	return best
}
