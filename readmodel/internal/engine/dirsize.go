package engine

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/planq-dev/planq/planqerr"
)

// DirSize counts the entries of the directory top/sub in branch's tree
// (learnings/auth, say): 0 when there is none. The tree's hash comes from
// the tip's listing and the count is kept by that hash, so a count of a
// directory that did not change reads no object from git (whose pack
// index alone costs a process milliseconds): what learn's check of a
// domain's size needs to stay a write's cost.
func (rd *Store) DirSize(branch, top, sub string) (int, error) {
	tip, err := rd.Tip(branch)
	if planqerr.Is(err, planqerr.NotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	l, err := rd.listing(tip)
	if err != nil {
		return 0, err
	}
	for _, e := range l.entries(top) {
		if e.Name != sub || !e.Dir {
			continue
		}
		file := filepath.Join(rd.cacheDir, "counts", e.Blob.String())
		if data, err := os.ReadFile(file); err == nil {
			if n, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && n >= 0 {
				return n, nil
			}
		}
		entries, err := rd.repo.TreeEntries(e.Blob)
		if err != nil {
			return 0, err
		}
		if os.MkdirAll(filepath.Dir(file), 0o755) == nil {
			_ = os.WriteFile(file, []byte(strconv.Itoa(len(entries))+"\n"), 0o644) // a count not kept costs time, never a read
		}
		return len(entries), nil
	}
	return 0, nil
}
