package readmodel

import (
	"bufio"
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// Use is how often, and when last, an agent was shown a record.
type Use struct {
	Count int
	Last  time.Time
}

// ParseUses reads a uses file: one line per record, "id TAB count TAB last
// use (RFC 3339)". Lines that do not read are skipped.
func ParseUses(data []byte) map[string]Use {
	uses := map[string]Use{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 3 || !changelog.ValidID(f[0]) {
			continue
		}
		n, err1 := strconv.Atoi(f[1])
		at, err2 := time.Parse(time.RFC3339, f[2])
		// A time whose UTC year RFC 3339 cannot write (a zone moved it
		// past 0000 or 9999) would not read back from what FormatUses
		// writes.
		if err1 != nil || err2 != nil || n < 0 || at.UTC().Year() < 0 || at.UTC().Year() > 9999 {
			continue
		}
		uses[f[0]] = Use{Count: n, Last: at.UTC()}
	}
	return uses
}

// FormatUses writes uses as ParseUses reads them, sorted by ID so that the
// file changes only where uses changed.
func FormatUses(uses map[string]Use) []byte {
	var b bytes.Buffer
	for _, id := range slices.Sorted(maps.Keys(uses)) {
		fmt.Fprintf(&b, "%s\t%d\t%s\n", id, uses[id].Count, uses[id].Last.UTC().Format(time.RFC3339))
	}
	return b.Bytes()
}

// LastUses is when each record was last used (shown by search, get or
// prime), by any agent: the uses files of global (where promote brings
// every agent's) and of every agent branch (its latest), the latest of all.
// The files come from the tips' listings, which keep small files' content:
// a read of unchanged tips reads nothing from git. A file held by several
// branches is read once.
func (rd *Reader) LastUses() (map[string]time.Time, error) {
	branches, err := rd.e.Branches("")
	if err != nil {
		return nil, err
	}
	last := map[string]time.Time{}
	seen := map[staterepo.Hash]bool{}
	for name, tip := range branches {
		if _, isAgent := project.AgentOfBranch(name); !isAgent && name != project.GlobalBranch {
			continue
		}
		files, err := rd.e.Files(tip, project.UsesDir)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			if seen[f.Blob] || !strings.HasSuffix(f.Name, ".tsv") {
				continue
			}
			seen[f.Blob] = true
			data := f.Content
			if data == nil {
				if data, err = rd.e.ReadBlob(f.Blob); err != nil {
					return nil, err
				}
			}
			for id, u := range ParseUses(data) {
				if u.Last.After(last[id]) {
					last[id] = u.Last
				}
			}
		}
	}
	return last, nil
}
