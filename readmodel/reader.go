package readmodel

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// Reader reads the records of one state repository through its segments
// (see segment): each shard's records decoded once per tree of it, and kept
// on disk for the next process.
type Reader struct {
	repo     *staterepo.Repo
	cacheDir string
	segments segmentStore
	// readBlob reads a record file's content; the repository's, except in
	// the tests that count what the segments saved.
	readBlob func(staterepo.Hash) ([]byte, error)
	builds   *buildCount

	mu       sync.Mutex
	pinned   map[string]staterepo.Hash // branch tips of a moment in the past (PinAsOf); nil reads today
	loaded   map[shard]*segment        // this process's segments
	listings map[staterepo.Hash]*listing
	holdings map[staterepo.Hash]*Holdings
}

// Open returns a reader of repo whose segments live under cacheDir.
func Open(repo *staterepo.Repo, cacheDir string) *Reader {
	return &Reader{repo: repo, cacheDir: cacheDir, segments: segmentStore{dir: filepath.Join(cacheDir, "segments")},
		readBlob: repo.ReadBlob, builds: &buildCount{to: silent{}}, loaded: map[shard]*segment{}, listings: map[staterepo.Hash]*listing{},
		holdings: map[staterepo.Hash]*Holdings{}}
}

// ReportBuilds has the reader tell p how its builds from git go.
func (rd *Reader) ReportBuilds(p Progress) { rd.builds = &buildCount{to: p} }

// Close releases the reader. Segments are written as they are built, so
// there is nothing left to save.
func (rd *Reader) Close() error { return nil }

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
// changelog.Current), and of each ring of versions the newest, marked (see
// ringBreaks).
func (s Set) Current() []*changelog.Record { return currentRecords(s.Records) }

// Branch loads the records of the given kinds (every kind when none) in
// branch's tree.
func (rd *Reader) Branch(branch string, kinds ...changelog.Kind) (Set, error) {
	tip, err := rd.tip(branch)
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
	tips, err := rd.tips()
	if err != nil {
		return Set{}, err
	}
	return rd.load(tips, kinds)
}

// tips are the tips of global, then of every agent branch in name order. A
// read of every branch reads each agent branch whole, even one global has
// merged: promote leaves out of global the malformed records it refuses and
// the duplicates it merges into another, so global need not hold all of an
// agent it merged.
//
// Global comes first because every reader keeps the first copy of a record
// it meets (load's dedupe, rowsOf, copiesOf, eachDistinct, History): a
// record on global and on an agent branch is read as global holds it, and
// global's copy is the one promote marked disputed or merged sources into.
func (rd *Reader) tips() ([]staterepo.Hash, error) {
	branches, err := rd.branches("")
	if err != nil {
		return nil, err
	}
	var names []string
	for name := range branches {
		if _, isAgent := project.AgentOfBranch(name); isAgent {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	if _, ok := branches[project.GlobalBranch]; ok {
		names = slices.Insert(names, 0, project.GlobalBranch)
	}
	tips := make([]staterepo.Hash, len(names))
	for i, n := range names {
		tips[i] = branches[n]
	}
	return tips, nil
}

func (rd *Reader) load(tips []staterepo.Hash, kinds []changelog.Kind) (Set, error) {
	segs, problems, err := rd.segmentsOf(tips, kinds)
	if err != nil {
		return Set{}, err
	}
	set := Set{Problems: problems}
	for _, seg := range segs {
		recs, err := rd.records(seg)
		if err != nil {
			return Set{}, err
		}
		set.Records = append(set.Records, recs...)
		for _, p := range seg.problems {
			set.Problems = append(set.Problems, p.err)
		}
	}
	set.Records = dedupe(set.Records)
	changelog.SortByTime(set.Records)
	set.Problems = uniqueProblems(set.Problems)
	return set, nil
}

// shards lists the kinds' directories (every kind's when none) in the
// trees of tips, each distinct tree of one once, and the files there that
// are not where records live. Each is read as one segment made of its
// shards' (see segment).
func (rd *Reader) shards(tips []staterepo.Hash, kinds []changelog.Kind) ([]shard, []*changelog.ParseError, error) {
	dirs, _, problems, err := rd.shardsWithin(tips, kinds)
	return dirs, problems, err
}

// shardsWithin is shards, with the shards within each directory, as the
// tips' listings hold them (no read of git).
func (rd *Reader) shardsWithin(tips []staterepo.Hash, kinds []changelog.Kind) ([]shard, map[shard][]shard, []*changelog.ParseError, error) {
	dirs := changelog.Dirs()
	if len(kinds) > 0 {
		dirs = changelog.DirsOf(kinds)
	}
	var out []shard
	within := map[shard][]shard{}
	var problems []*changelog.ParseError
	seen := map[shard]bool{}
	for _, tip := range tips {
		l, err := rd.listing(tip)
		if err != nil {
			return nil, nil, nil, err
		}
		for _, e := range l.entries("") {
			if !slices.Contains(dirs, e.Name) {
				continue
			}
			if !e.Dir {
				if misplaced(e.Name) {
					problems = append(problems, misplacedProblem(e.Name))
				}
				continue
			}
			if seen[shard{e.Name, e.Blob}] {
				continue // the kind's whole directory is one already listed
			}
			dir := shard{e.Name, e.Blob}
			seen[dir] = true
			out = append(out, dir)
			for _, sub := range l.entries(e.Name) {
				p := e.Name + "/" + sub.Name
				if sub.Dir {
					within[dir] = append(within[dir], shard{p, sub.Blob})
				} else if misplaced(p) {
					problems = append(problems, misplacedProblem(p))
				}
			}
		}
	}
	return out, within, problems, nil
}

// segmentsOf returns the segments of the kinds' directories in the trees of tips.
func (rd *Reader) segmentsOf(tips []staterepo.Hash, kinds []changelog.Kind) ([]*segment, []*changelog.ParseError, error) {
	shards, problems, err := rd.shards(tips, kinds)
	if err != nil {
		return nil, nil, err
	}
	segs := make([]*segment, 0, len(shards))
	rd.builds.begin() // the directories' builds are one build to hear of
	defer rd.builds.end()
	for _, sh := range shards {
		seg, err := rd.segment(sh)
		if err != nil {
			return nil, nil, err
		}
		segs = append(segs, seg)
	}
	return segs, problems, nil
}

// records decodes every record of seg. A segment whose records do not
// decode is damaged: it is built again from git, and that one is read.
func (rd *Reader) records(seg *segment) ([]*changelog.Record, error) {
	recs, err := seg.records()
	if err == nil {
		return recs, nil
	}
	seg, err = rd.rebuild(seg.shard)
	if err != nil {
		return nil, err
	}
	return seg.records()
}

// rebuild builds sh's segment from git alone, over a damaged one.
func (rd *Reader) rebuild(sh shard) (*segment, error) {
	_ = os.Remove(rd.segments.file(sh.path, sh.tree)) // it is written again below
	seg, err := rd.build(sh, false)
	if err != nil {
		return nil, err
	}
	rd.remember(sh, seg)
	return seg, nil
}

// maxLoaded bounds the segments one process keeps in memory: a long-running
// MCP server meets a new tree of a shard with every record written.
const maxLoaded = 4096

// segment returns the segment of sh: from memory, from its file, or built
// from git (and from the shard's newest segment) when the file is missing,
// damaged or of another format.
func (rd *Reader) segment(sh shard) (*segment, error) {
	if seg := rd.held(sh); seg != nil {
		return seg, nil
	}
	// Not under the lock: a directory's segment opens its shards'. Two
	// goroutines that build the same segment build the same bytes.
	seg, err := rd.build(sh, true)
	if err != nil {
		return nil, err
	}
	rd.remember(sh, seg)
	return seg, nil
}

// held is sh's segment when this process or the cache holds one that
// reads, nil when it must be built.
func (rd *Reader) held(sh shard) *segment {
	rd.mu.Lock()
	seg, ok := rd.loaded[sh]
	rd.mu.Unlock()
	if ok {
		return seg
	}
	seg, err := rd.segments.load(sh)
	if err != nil {
		return nil
	}
	rd.remember(sh, seg)
	return seg
}

// build makes sh's segment from git: a kind's directory from its shards'
// segments, a shard from its records.
func (rd *Reader) build(sh shard, incremental bool) (*segment, error) {
	rd.builds.begin()
	defer rd.builds.end()
	if !strings.Contains(sh.path, "/") {
		return rd.buildDir(sh)
	}
	return rd.buildSegment(sh, incremental)
}

func (rd *Reader) remember(sh shard, seg *segment) {
	if seg.parts != nil {
		seg.open, seg.rebuild = rd.segment, rd.rebuild
	}
	rd.mu.Lock()
	defer rd.mu.Unlock()
	if len(rd.loaded) >= maxLoaded {
		clear(rd.loaded)
	}
	rd.loaded[sh] = seg
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
	branches, err := rd.branches(project.AgentBranchPrefix)
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
// git, never from the disk. A record's file is read from global first
// when global has it, as every view reads it (see tips): global's copy is
// the one promote marked. It returns the branch it was found on.
func (rd *Reader) ReadFile(p string, branches ...string) ([]byte, string, error) {
	if changelog.IsRecordPath(p) {
		branches = append([]string{project.GlobalBranch}, branches...)
	}
	order, err := rd.lookupOrder(branches...)
	if err != nil {
		return nil, "", err
	}
	return order.read(rd, p)
}

// lookupOrder is where ReadFile looks, in order: branches first, then
// global, then every branch by name, with their tips read once.
type lookupOrder struct {
	names []string
	tips  map[string]staterepo.Hash
}

func (rd *Reader) lookupOrder(branches ...string) (lookupOrder, error) {
	tips, err := rd.branches("")
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

func (o lookupOrder) read(rd *Reader, p string) ([]byte, string, error) {
	for _, b := range o.names {
		tip, ok := o.tips[b]
		if !ok {
			continue
		}
		if data, err := rd.FileAt(tip, p); err == nil {
			return data, b, nil
		}
	}
	return nil, "", fmt.Errorf("no file %s in the state repository", strings.TrimSpace(p))
}
