package changelog

import (
	"slices"
	"strings"
)

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

// IDOfPath is the ID of the record a record path names ("" when the path
// is not where a record lives).
func IDOfPath(p string) string {
	if !IsRecordPath(p) {
		return ""
	}
	id := strings.TrimSuffix(p[strings.LastIndexByte(p, '/')+1:], ".md")
	if !ValidID(id) {
		return ""
	}
	return id
}
