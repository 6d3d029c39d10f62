package team

import (
	"bytes"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/staterepo"
)

// Choice is a path both sides changed differently, and what the merge kept.
type Choice struct {
	Path string `json:"path"`
	Kept string `json:"kept"`
	// Other is the version not kept; it stays reachable in history.
	Other string `json:"other"`
}

// resolver is the merge policy of the package doc, for one merge.
type resolver struct {
	repo    *staterepo.Repo
	choices []Choice
}

func (rs *resolver) resolve(path string, base, ours, theirs staterepo.Hash) (staterepo.Hash, error) {
	record := changelog.IsRecordPath(path)
	switch {
	case ours.IsZero() && theirs.IsZero():
		if record {
			return base, nil // deleted on both sides by hand: a record is never deleted by absence
		}
		return staterepo.ZeroHash, nil
	case ours.IsZero() || theirs.IsZero():
		kept := ours
		if kept.IsZero() {
			kept = theirs
		}
		if record || kept != base {
			return kept, nil // records stay; so does a file changed on the side that kept it
		}
		return staterepo.ZeroHash, nil // unchanged on one side, deleted on the other
	}
	a, b := rs.stamp(path, ours), rs.stamp(path, theirs)
	kept, other := ours, theirs
	if b.After(a) || (b.Equal(a) && theirs.String() > ours.String()) {
		kept, other = theirs, ours
	}
	rs.choices = append(rs.choices, Choice{Path: path, Kept: kept.String(), Other: other.String()})
	return kept, nil
}

// stamp is the time a file's version claims: a record's timestamp, a branch
// context's updated_at; zero when it has none.
func (rs *resolver) stamp(path string, blob staterepo.Hash) time.Time {
	data, err := rs.repo.ReadBlob(blob)
	if err != nil {
		return time.Time{}
	}
	if changelog.IsRecordPath(path) {
		if r, err := changelog.Parse(path, data); err == nil {
			return r.Timestamp
		}
		return time.Time{}
	}
	return frontmatterTime(data, "updated_at")
}

// frontmatterTime reads one time field from a Markdown file's frontmatter,
// leniently: it only orders versions, it validates nothing.
func frontmatterTime(data []byte, key string) time.Time {
	rest, ok := bytes.CutPrefix(data, []byte("---\n"))
	if !ok {
		return time.Time{}
	}
	head, _, ok := bytes.Cut(rest, []byte("\n---"))
	if !ok {
		return time.Time{}
	}
	var fields map[string]any
	if yaml.Unmarshal(head, &fields) != nil {
		return time.Time{}
	}
	switch v := fields[key].(type) {
	case time.Time:
		return v
	case string:
		t, _ := time.Parse(time.RFC3339Nano, strings.TrimSpace(v))
		return t
	}
	return time.Time{}
}
