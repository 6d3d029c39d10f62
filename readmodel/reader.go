package readmodel

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// Reader reads the records of one state repository through the record cache.
type Reader struct {
	repo  *staterepo.Repo
	cache *cache
	// readBlob reads a record file's content; the repository's, except in
	// the tests that count what the cache saved.
	readBlob func(staterepo.Hash) ([]byte, error)
}

// Open returns a reader of repo whose cache lives in cacheDir.
func Open(repo *staterepo.Repo, cacheDir string) *Reader {
	return &Reader{repo: repo, cache: openCache(filepath.Join(cacheDir, "records.bin")), readBlob: repo.ReadBlob}
}

// Close saves what the cache learned. Losing it costs only time.
func (rd *Reader) Close() error { return rd.cache.save() }

// Set is what a load found: the records it could read, oldest first, and
// the files it could not, each located by file and line.
type Set struct {
	Records  []*changelog.Record
	Problems []*changelog.ParseError
}

// ProblemLines are the problems as report lines.
func (s Set) ProblemLines() []string {
	out := make([]string, len(s.Problems))
	for i, p := range s.Problems {
		out[i] = p.Error()
	}
	return out
}

// Current is the set's latest version of everything that is live (see
// changelog.Current).
func (s Set) Current() []*changelog.Record { return changelog.Current(s.Records) }

// Branch loads the records of the given kinds (every kind when none) in
// branch's tree.
func (rd *Reader) Branch(branch string, kinds ...changelog.Kind) (Set, error) {
	tip, err := rd.repo.Tip(branch)
	if err != nil {
		return Set{}, err
	}
	return rd.load([]staterepo.Hash{tip}, kinds)
}

// Commit loads the records of the given kinds (every kind when none) of one
// commit.
func (rd *Reader) Commit(commit staterepo.Hash, kinds ...changelog.Kind) (Set, error) {
	return rd.load([]staterepo.Hash{commit}, kinds)
}

// All loads the records of the given kinds (every kind when none) on global
// and on every agent branch, each once.
func (rd *Reader) All(kinds ...changelog.Kind) (Set, error) {
	branches, err := rd.repo.Branches("")
	if err != nil {
		return Set{}, err
	}
	names := make([]string, 0, len(branches))
	for name := range branches {
		if _, isAgent := project.AgentOfBranch(name); isAgent || name == project.GlobalBranch {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	tips := make([]staterepo.Hash, len(names))
	for i, n := range names {
		tips[i] = branches[n]
	}
	return rd.load(tips, kinds)
}

func (rd *Reader) load(tips []staterepo.Hash, kinds []changelog.Kind) (Set, error) {
	dirs := changelog.Dirs()
	if len(kinds) > 0 {
		dirs = changelog.DirsOf(kinds)
	}
	seen := map[string]bool{}
	var files []staterepo.File
	for _, tip := range tips {
		fs, err := rd.repo.Walk(tip, dirs, seen)
		if err != nil {
			return Set{}, err
		}
		files = append(files, fs...)
	}
	set, err := rd.parse(files)
	if err != nil {
		return Set{}, err
	}
	set.Records = dedupe(set.Records)
	changelog.SortByTime(set.Records)
	set.Problems = uniqueProblems(set.Problems)
	return set, nil
}

// parse reads the record files among files. Files that are not at record
// paths are skipped; the same blob at the same path is read once.
func (rd *Reader) parse(files []staterepo.File) (Set, error) {
	type key struct {
		path string
		blob staterepo.Hash
	}
	seen := make(map[key]bool, len(files))
	var set Set
	for _, f := range files {
		if !changelog.IsRecordPath(f.Path) {
			if misplaced(f.Path) {
				set.Problems = append(set.Problems, &changelog.ParseError{Path: f.Path,
					Msg: "is not where a record lives (<kind directory>/<shard>/<id>.md), so nothing reads it; move it to its shard"})
			}
			continue
		}
		if seen[key{f.Path, f.Blob}] {
			continue
		}
		seen[key{f.Path, f.Blob}] = true
		if r, ok := rd.cache.get(f.Blob); ok && r.Path == f.Path {
			// Shared, not copied: records are immutable once loaded.
			set.Records = append(set.Records, r)
			continue
		}
		data, err := rd.readBlob(f.Blob)
		if err != nil {
			return Set{}, err
		}
		r, err := changelog.Parse(f.Path, data)
		if err != nil {
			var pe *changelog.ParseError
			if !errors.As(err, &pe) {
				return Set{}, fmt.Errorf("failed to read %s: %w", f.Path, err)
			}
			set.Problems = append(set.Problems, pe)
			continue
		}
		rd.cache.put(f.Blob, r)
		set.Records = append(set.Records, r)
	}
	return set, nil
}

// misplaced reports whether path, a file under a kind's directory, looks
// like a record but is not at a record path: a decision at the top of
// decisions/, or one shard too deep. READMEs are planq's own.
func misplaced(path string) bool {
	return strings.HasSuffix(path, ".md") && !strings.HasSuffix(path, "/"+project.ReadmeFile)
}

// uniqueProblems reports each problem once, though several branches hold it.
func uniqueProblems(ps []*changelog.ParseError) []*changelog.ParseError {
	seen := map[string]bool{}
	out := ps[:0]
	for _, p := range ps {
		if k := p.Error(); !seen[k] {
			seen[k] = true
			out = append(out, p)
		}
	}
	return out
}

// dedupe keeps one copy of each record ID; the same record reached through
// two branches is the same file.
func dedupe(recs []*changelog.Record) []*changelog.Record {
	seen := make(map[string]bool, len(recs))
	out := recs[:0]
	for _, r := range recs {
		if !seen[r.ID] {
			seen[r.ID] = true
			out = append(out, r)
		}
	}
	return out
}

// AgentNames lists the agents that have a branch, sorted.
func (rd *Reader) AgentNames() ([]string, error) {
	branches, err := rd.repo.Branches(project.AgentBranchPrefix)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(branches))
	for b := range branches {
		if name, ok := project.AgentOfBranch(b); ok {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names, nil
}

// ReadFile returns the file at p as the first of branches that has it, then
// global, then every other branch, in name order: records are read from
// git, never from the disk. It returns the branch it was found on.
func (rd *Reader) ReadFile(p string, branches ...string) ([]byte, string, error) {
	order, err := rd.lookupOrder(branches...)
	if err != nil {
		return nil, "", err
	}
	return order.read(rd.repo, p)
}

// lookupOrder is where ReadFile looks, in order: branches first, then
// global, then every branch by name, with their tips read once.
type lookupOrder struct {
	names []string
	tips  map[string]staterepo.Hash
}

func (rd *Reader) lookupOrder(branches ...string) (lookupOrder, error) {
	tips, err := rd.repo.Branches("")
	if err != nil {
		return lookupOrder{}, err
	}
	names := make([]string, 0, len(tips))
	for b := range tips {
		names = append(names, b)
	}
	sort.Strings(names)
	return lookupOrder{names: slices.Concat(branches, []string{project.GlobalBranch}, names), tips: tips}, nil
}

func (o lookupOrder) read(repo *staterepo.Repo, p string) ([]byte, string, error) {
	for _, b := range o.names {
		tip, ok := o.tips[b]
		if !ok {
			continue
		}
		if data, err := repo.ReadFile(tip, p); err == nil {
			return data, b, nil
		}
	}
	return nil, "", fmt.Errorf("no file %s in the state repository", strings.TrimSpace(p))
}
