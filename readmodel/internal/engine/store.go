package engine

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

// Store is the read model's engine over one state repository: the
// segments of its shards (each shard's records decoded once per tree of
// it, and kept on disk for the next process), the listings of its commits,
// the view files kept beside them, and the moment in the past it reads
// when pinned (PinAsOf). Package readmodel builds its views on it.
type Store struct {
	repo     *staterepo.Repo
	cacheDir string
	segments segmentStore
	// readBlob reads a record file's content; the repository's, except in
	// the tests that count what the segments saved.
	readBlob func(staterepo.Hash) ([]byte, error)
	builds   *buildCount

	mu       sync.Mutex
	pinned   map[string]staterepo.Hash // branch tips of a moment in the past (PinAsOf); nil reads today
	loaded   map[shard]*Segment        // this process's segments
	listings map[staterepo.Hash]*listing
	// vectors are this process's segments' vectors, by model (vectors.go);
	// prunedModels says whether the vectors of models no longer used were
	// dropped yet.
	vectors      map[vectorKey]*vectorSet
	prunedModels bool
	// articleSets are global's knowledge bases read, by tree (articles.go).
	articleSets map[staterepo.Hash]*Articles
	// memorySets are memories/ folders read, by tree (memories.go).
	memorySets map[staterepo.Hash]*Memories
	// tallies are this process's tallies, by file (tally.go); walks counts
	// the reads they left to a walk over every record.
	tallies map[string]*tallyFile
	walks   int
}

// Open returns the store of repo whose cache lives under cacheDir.
func Open(repo *staterepo.Repo, cacheDir string) *Store {
	return &Store{repo: repo, cacheDir: cacheDir, segments: segmentStore{dir: filepath.Join(cacheDir, "segments")},
		readBlob: repo.ReadBlob, builds: &buildCount{to: silent{}}, loaded: map[shard]*Segment{}, listings: map[staterepo.Hash]*listing{},
		vectors: map[vectorKey]*vectorSet{}}
}

// ReportBuilds has the store tell p how its builds from git go.
func (rd *Store) ReportBuilds(p Progress) { rd.builds = &buildCount{to: p} }

// Repo is the state repository the store reads.
func (rd *Store) Repo() *staterepo.Repo { return rd.repo }

// CacheDir is the directory of the store's files.
func (rd *Store) CacheDir() string { return rd.cacheDir }

// Tips are the tips of global, then of every agent branch in name order. A
// read of every branch reads each agent branch whole, even one global has
// merged: promote leaves out of global the malformed records it refuses and
// the duplicates it merges into another, so global need not hold all of an
// agent it merged.
//
// Global comes first because every reader keeps the first copy of a record
// it meets (load's dedupe, rowsOf, copiesOf, eachDistinct, History): a
// record on global and on an agent branch is read as global holds it, and
// global's copy is the one promote marked disputed or merged sources into.
func (rd *Store) Tips() ([]staterepo.Hash, error) {
	branches, err := rd.Branches("")
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

// Load reads the records of the kinds (every kind when none) in the trees
// of tips, each once, oldest first, and the files there that are not
// readable records.
func (rd *Store) Load(tips []staterepo.Hash, kinds []changelog.Kind) ([]*changelog.Record, []*changelog.ParseError, error) {
	segs, problems, err := rd.Segments(tips, kinds)
	if err != nil {
		return nil, nil, err
	}
	var recs []*changelog.Record
	for _, seg := range segs {
		rs, err := rd.Records(seg)
		if err != nil {
			return nil, nil, err
		}
		recs = append(recs, rs...)
		for _, p := range seg.problems {
			problems = append(problems, p.err)
		}
	}
	recs = dedupe(recs)
	changelog.SortByTime(recs)
	return recs, uniqueProblems(problems), nil
}

// shards lists the kinds' directories (every kind's when none) in the
// trees of tips, each distinct tree of one once, and the files there that
// are not where records live. Each is read as one segment made of its
// shards' (see segment).
func (rd *Store) shards(tips []staterepo.Hash, kinds []changelog.Kind) ([]shard, []*changelog.ParseError, error) {
	dirs, _, problems, err := rd.shardsWithin(tips, kinds)
	return dirs, problems, err
}

// shardsWithin is shards, with the shards within each directory, as the
// tips' listings hold them (no read of git).
func (rd *Store) shardsWithin(tips []staterepo.Hash, kinds []changelog.Kind) ([]shard, map[shard][]shard, []*changelog.ParseError, error) {
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
				if Misplaced(e.Name) {
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
				} else if Misplaced(p) {
					problems = append(problems, misplacedProblem(p))
				}
			}
		}
	}
	return out, within, problems, nil
}

// Segments returns the segments of the kinds' directories in the trees of tips.
func (rd *Store) Segments(tips []staterepo.Hash, kinds []changelog.Kind) ([]*Segment, []*changelog.ParseError, error) {
	shards, problems, err := rd.shards(tips, kinds)
	if err != nil {
		return nil, nil, err
	}
	segs := make([]*Segment, 0, len(shards))
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

// Records decodes every record of seg. A segment whose records do not
// decode is damaged: it is built again from git, and that one is read.
func (rd *Store) Records(seg *Segment) ([]*changelog.Record, error) {
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
func (rd *Store) rebuild(sh shard) (*Segment, error) {
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
func (rd *Store) segment(sh shard) (*Segment, error) {
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
func (rd *Store) held(sh shard) *Segment {
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
func (rd *Store) build(sh shard, incremental bool) (*Segment, error) {
	rd.builds.begin()
	defer rd.builds.end()
	if !strings.Contains(sh.path, "/") {
		return rd.buildDir(sh)
	}
	return rd.buildSegment(sh, incremental)
}

func (rd *Store) remember(sh shard, seg *Segment) {
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
func (rd *Store) AgentNames() ([]string, error) {
	branches, err := rd.Branches(project.AgentBranchPrefix)
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
// the one promote marked; so is a file of the knowledge base, which is
// global's. It returns the branch it was found on.
func (rd *Store) ReadFile(p string, branches ...string) ([]byte, string, error) {
	if changelog.IsRecordPath(p) || strings.HasPrefix(p, changelog.KindArticle.Dir()+"/") {
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

func (rd *Store) lookupOrder(branches ...string) (lookupOrder, error) {
	tips, err := rd.Branches("")
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

func (o lookupOrder) read(rd *Store, p string) ([]byte, string, error) {
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

// CountBlobReads has the store count in *n the record files it reads from
// git from now on: how the read model's tests hold a warm read to reading
// none.
func (rd *Store) CountBlobReads(n *int) {
	read := rd.readBlob
	rd.readBlob = func(h staterepo.Hash) ([]byte, error) {
		*n++
		return read(h)
	}
}
