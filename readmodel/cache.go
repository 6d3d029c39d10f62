package readmodel

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/google/renameio/v2"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/staterepo"
)

// cache maps blob IDs to parsed records, kept in one file.
type cache struct {
	path    string
	mu      sync.Mutex
	entries map[staterepo.Hash]*changelog.Record
	added   int
}

// openCache returns the cache kept at path. The file is read on first use,
// so commands that only write records never pay for decoding it. A missing,
// old or damaged cache file starts an empty cache: it is only a shortcut.
func openCache(path string) *cache {
	return &cache{path: path}
}

// loadLocked reads the cache file once; c.mu is held.
func (c *cache) loadLocked() {
	if c.entries != nil {
		return
	}
	c.entries = map[staterepo.Hash]*changelog.Record{}
	f, err := os.Open(c.path)
	if err != nil {
		return
	}
	defer f.Close()
	if entries, err := decodeCache(f); err == nil {
		c.entries = entries
	}
}

func (c *cache) get(id staterepo.Hash) (*changelog.Record, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.loadLocked()
	r, ok := c.entries[id]
	return r, ok
}

func (c *cache) put(id staterepo.Hash, r *changelog.Record) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.loadLocked()
	c.entries[id] = r
	c.added++
}

// save writes the cache if anything was added, atomically: concurrent
// processes may each replace it, and every version they write is valid.
func (c *cache) save() error {
	if c == nil || c.added == 0 {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(c.path), 0o755); err != nil {
		return fmt.Errorf("failed to create cache directory: %w", err)
	}
	f, err := renameio.NewPendingFile(c.path, renameio.WithPermissions(0o644))
	if err != nil {
		return fmt.Errorf("failed to write cache: %w", err)
	}
	defer func() { _ = f.Cleanup() }() // after a successful replace there is nothing left to clean
	if err := encodeCache(f, c.entries); err != nil {
		return fmt.Errorf("failed to write cache: %w", err)
	}
	if err := f.CloseAtomicallyReplace(); err != nil {
		return fmt.Errorf("failed to write cache: %w", err)
	}
	c.added = 0
	return nil
}
