package lifecycle

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/plural"
	"github.com/planq-dev/planq/lifecycle/ringfix"
	"github.com/planq-dev/planq/project"
)

// Fixed is one repair validate --fix made.
type Fixed struct {
	Path string `json:"path"`
	// To is where the file went, when it moved.
	To   string `json:"to,omitempty"`
	What string `json:"what"`
}

// FixResult is what Fix repaired, in which commit.
type FixResult struct {
	Fixed  []Fixed `json:"fixed"`
	Commit string  `json:"commit,omitempty"`
}

// enumLine matches a frontmatter line of a field whose values are a fixed
// set: the value may be put right by case and spacing alone.
var enumLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(kind|type|classification|status|domain):([ \t]*)(.*?)[ \t]*$`)
})

// Fix repairs, in the agent's worktree, what is safe to repair in its
// record files, and commits the repairs in one commit: a value of a fixed
// set (kind, type, classification, status, domain) in the wrong case or
// with stray spaces, and a record at the wrong place (moved to where its
// kind, shard and ID say, unless another file is there), and a ring of
// versions (see ringfix.Plan). A file is touched only if it then reads as a
// record; nothing else is changed: what is left is for a person (Validate
// names it).
func Fix(ctx context.Context, a *agent.Agent) (FixResult, error) {
	w := &fixWalk{dir: a.Dir, changes: map[string][]byte{}}
	for _, dir := range changelog.Dirs() {
		if err := filepath.WalkDir(filepath.Join(a.Dir, dir), w.visit); err != nil {
			return FixResult{}, err
		}
	}
	res := FixResult{Fixed: w.fixed}
	cuts, err := ringfix.Plan(a, w.changes)
	if err != nil {
		return FixResult{}, err
	}
	for _, c := range cuts {
		res.Fixed = append(res.Fixed, Fixed{Path: c.Path, What: c.What})
	}
	sort.Slice(res.Fixed, func(i, j int) bool { return res.Fixed[i].Path < res.Fixed[j].Path })
	if len(w.changes) == 0 {
		return res, nil
	}
	commit, err := a.Rewrite(ctx, w.changes, ringfix.Message("validate --fix: repair "+plural.Of(len(res.Fixed), "record file"), cuts))
	if err != nil {
		return FixResult{}, err
	}
	res.Commit = commit.String()
	return res, nil
}

// fixWalk gathers the repairs of the record files of the worktree at dir:
// the files changed (nil to delete), by path, and what was fixed.
type fixWalk struct {
	dir     string
	changes map[string][]byte
	fixed   []Fixed
}

// visit repairs the file at p, if it is a record file that does not read.
func (w *fixWalk) visit(p string, d fs.DirEntry, err error) error {
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	if d.IsDir() || d.Name() == project.ReadmeFile || !strings.HasSuffix(d.Name(), ".md") {
		return nil
	}
	rel, err := filepath.Rel(w.dir, p)
	if err != nil {
		return err
	}
	rel = filepath.ToSlash(rel)
	data, err := os.ReadFile(p)
	if err != nil {
		return fmt.Errorf("failed to read %s: %w", rel, err)
	}
	if _, err := changelog.Parse(rel, data); err == nil {
		return nil
	}
	w.repair(rel, data)
	return nil
}

// repair normalizes the record file at rel and moves it where its kind,
// shard and ID say, when it then reads and that place is free; else it is
// not safe to repair, and left for a person.
func (w *fixWalk) repair(rel string, data []byte) {
	fixed, what := normalize(data)
	rec, err := changelog.Parse("", fixed)
	if err != nil {
		return
	}
	want := changelog.RecordPath(rec)
	if want == rel {
		w.changes[rel] = fixed
		w.fixed = append(w.fixed, Fixed{Path: rel, What: strings.Join(what, "; ")})
		return
	}
	if _, taken := w.changes[want]; taken {
		return
	}
	if _, err := os.Stat(filepath.Join(w.dir, filepath.FromSlash(want))); err == nil {
		return
	}
	w.changes[rel], w.changes[want] = nil, fixed
	w.fixed = append(w.fixed, Fixed{Path: rel, To: want, What: strings.Join(append(what, "moved to where its kind, shard and ID say"), "; ")})
}

// normalize puts the values of fixed sets in a record file's frontmatter
// right by case and spacing, and says what it changed.
func normalize(data []byte) ([]byte, []string) {
	lines := bytes.Split(data, []byte("\n"))
	var what []string
	if len(lines) == 0 || strings.TrimSpace(string(lines[0])) != "---" {
		return data, nil
	}
	for i := 1; i < len(lines); i++ {
		line := string(lines[i])
		if strings.TrimSpace(line) == "---" {
			break
		}
		m := enumLine().FindStringSubmatch(line)
		if m == nil {
			continue
		}
		value := strings.ToLower(strings.Trim(m[3], `"' `))
		if value == m[3] && m[2] == " " {
			continue
		}
		lines[i] = []byte(m[1] + ": " + value)
		what = append(what, fmt.Sprintf("%s %q made %q", m[1], m[3], value))
	}
	return bytes.Join(lines, []byte("\n")), what
}
