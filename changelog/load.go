package changelog

import (
	"encoding/gob"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/google/renameio/v2"
)

// BlobID is the git object ID of a record file's content.
type BlobID = [20]byte

// File is a record file in some tree: its path and its content's blob ID.
type File struct {
	Path string
	Blob BlobID
}

// IsRecordPath reports whether path is where a record could live:
// <kind dir>/<shard>/<name>.md. READMEs at the top of kind directories and
// anything else in the tree are not records.
func IsRecordPath(path string) bool {
	parts := strings.Split(path, "/")
	if len(parts) != 3 || !strings.HasSuffix(parts[2], ".md") {
		return false
	}
	_, ok := KindOfDir(parts[0])
	return ok
}

// Loader reads records by blob ID through a cache. Records are immutable and
// named by content, so a cached record is never stale; the cache turns the
// cost of reading many records into the cost of listing their trees.
type Loader struct {
	read  func(BlobID) ([]byte, error)
	cache *Cache
}

// NewLoader returns a loader reading blobs with read; cache may be nil.
func NewLoader(read func(BlobID) ([]byte, error), cache *Cache) *Loader {
	return &Loader{read: read, cache: cache}
}

// Load parses the record files among files. Files that are not at record
// paths are skipped; the same blob at the same path is read once. Malformed
// records are collected into a *LoadError after the good ones are returned.
func (l *Loader) Load(files []File) ([]*Record, error) {
	type key struct {
		path string
		blob BlobID
	}
	seen := make(map[key]bool, len(files))
	var recs []*Record
	var bad []*ParseError
	for _, f := range files {
		if !IsRecordPath(f.Path) || seen[key{f.Path, f.Blob}] {
			continue
		}
		seen[key{f.Path, f.Blob}] = true
		if r, ok := l.cache.get(f.Blob); ok && r.Path == f.Path {
			// Shared, not copied: records are immutable once loaded.
			recs = append(recs, r)
			continue
		}
		data, err := l.read(f.Blob)
		if err != nil {
			return nil, err
		}
		r, err := Parse(f.Path, data)
		if err != nil {
			var pe *ParseError
			if errors.As(err, &pe) {
				bad = append(bad, pe)
				continue
			}
			return nil, err
		}
		l.cache.put(f.Blob, r)
		recs = append(recs, r)
	}
	if len(bad) > 0 {
		return recs, &LoadError{Problems: bad}
	}
	return recs, nil
}

// LoadError lists the malformed records met while loading.
type LoadError struct {
	Problems []*ParseError
}

func (e *LoadError) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteString("\n")
		}
		if i == 5 {
			fmt.Fprintf(&b, "... and %d more malformed records", len(e.Problems)-5)
			break
		}
		b.WriteString(p.Error())
	}
	return b.String()
}

// SortByTime orders records oldest first; ties keep ID order so the result
// is the same on every machine.
func SortByTime(recs []*Record) {
	slices.SortFunc(recs, func(a, b *Record) int {
		if c := a.Timestamp.Compare(b.Timestamp); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
}

// Current drops records that a later record supersedes, and tombstones with
// what they delete, leaving the latest version of everything that is live.
func Current(recs []*Record) []*Record {
	replaced := map[string]bool{}
	for _, r := range recs {
		if r.Supersedes != "" {
			replaced[r.Supersedes] = true
		}
	}
	out := recs[:0:0]
	for _, r := range recs {
		if !replaced[r.ID] && !r.Tombstone {
			out = append(out, r)
		}
	}
	return out
}

// cacheVersion changes whenever Record's encoding changes, so an old cache
// is ignored rather than misread.
const cacheVersion = 1

// Cache maps blob IDs to parsed records, kept in one file.
type Cache struct {
	path    string
	mu      sync.Mutex
	entries map[BlobID]*Record
	added   int
}

type cacheFile struct {
	Version int
	Blobs   []BlobID
	Records []Record
}

// OpenCache returns the cache kept at path. The file is read on first use,
// so commands that only write records never pay for decoding it. A missing,
// old or damaged cache file starts an empty cache: it is only a shortcut.
func OpenCache(path string) *Cache {
	return &Cache{path: path}
}

// loadLocked reads the cache file once; c.mu is held.
func (c *Cache) loadLocked() {
	if c.entries != nil {
		return
	}
	c.entries = map[BlobID]*Record{}
	f, err := os.Open(c.path)
	if err != nil {
		return
	}
	defer f.Close()
	var cf cacheFile
	if err := gob.NewDecoder(f).Decode(&cf); err != nil || cf.Version != cacheVersion || len(cf.Blobs) != len(cf.Records) {
		return
	}
	for i := range cf.Blobs {
		r := &cf.Records[i]
		r.Path = RecordPath(r) // a valid record lives only there
		c.entries[cf.Blobs[i]] = r
	}
}

func (c *Cache) get(id BlobID) (*Record, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.loadLocked()
	r, ok := c.entries[id]
	return r, ok
}

func (c *Cache) put(id BlobID, r *Record) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.loadLocked()
	c.entries[id] = r
	c.added++
}

// Save writes the cache if anything was added, atomically: concurrent
// processes may each replace it, and every version they write is valid.
func (c *Cache) Save() error {
	if c == nil || c.added == 0 {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	cf := cacheFile{Version: cacheVersion}
	for id, r := range c.entries {
		cf.Blobs = append(cf.Blobs, id)
		rc := *r
		rc.Path = ""
		cf.Records = append(cf.Records, rc)
	}
	if err := os.MkdirAll(filepath.Dir(c.path), 0o755); err != nil {
		return fmt.Errorf("failed to create cache directory: %w", err)
	}
	f, err := renameio.NewPendingFile(c.path, renameio.WithPermissions(0o644))
	if err != nil {
		return fmt.Errorf("failed to write cache: %w", err)
	}
	defer func() { _ = f.Cleanup() }() // after a successful replace there is nothing left to clean
	if err := gob.NewEncoder(f).Encode(&cf); err != nil {
		return fmt.Errorf("failed to write cache: %w", err)
	}
	if err := f.CloseAtomicallyReplace(); err != nil {
		return fmt.Errorf("failed to write cache: %w", err)
	}
	c.added = 0
	return nil
}
