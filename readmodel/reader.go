package readmodel

import (
	"context"
	"sync"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/embed"
	"github.com/planq-dev/planq/readmodel/internal/engine"
	"github.com/planq-dev/planq/staterepo"
)

// Reader reads the records of one state repository: the views of this
// package, over the read model's engine (internal/engine), which keeps
// each shard's records decoded once per tree of it, on disk for the next
// process.
type Reader struct {
	e *engine.Store

	mu       sync.Mutex
	holdings map[staterepo.Hash]*Holdings

	// The embedding model of searches (model.go): how to open it, and,
	// once a search opened it, the model or why there is none; when it
	// last failed to embed, and why; the failure a search met, and the
	// failures told already.
	modelMu       sync.Mutex
	loadModel     ModelLoader
	modelLoaded   bool
	model         embed.Model
	modelErr      error
	modelFailed   error
	modelFailedAt time.Time
	modelWarn     error
	modelWarned   map[string]bool
}

// Open returns a reader of repo whose read model lives under cacheDir.
func Open(repo *staterepo.Repo, cacheDir string) *Reader {
	return &Reader{e: engine.Open(repo, cacheDir), holdings: map[staterepo.Hash]*Holdings{}}
}

// ReportBuilds has the reader tell p how its builds from git go.
func (rd *Reader) ReportBuilds(p Progress) { rd.e.ReportBuilds(p) }

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
// changelog.Current), and of each ring of versions the newest, marked.
func (s Set) Current() []*changelog.Record { return engine.CurrentRecords(s.Records) }

// Branch loads the records of the given kinds (every kind when none) in
// branch's tree.
func (rd *Reader) Branch(branch string, kinds ...changelog.Kind) (Set, error) {
	tip, err := rd.e.Tip(branch)
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
// and on every agent branch, each once: a record on global and on an agent
// branch is read as global holds it (see engine.Store.Tips).
func (rd *Reader) All(kinds ...changelog.Kind) (Set, error) {
	tips, err := rd.e.Tips()
	if err != nil {
		return Set{}, err
	}
	return rd.load(tips, kinds)
}

func (rd *Reader) load(tips []staterepo.Hash, kinds []changelog.Kind) (Set, error) {
	recs, problems, err := rd.e.Load(tips, kinds)
	if err != nil {
		return Set{}, err
	}
	return Set{Records: recs, Problems: problems}, nil
}

// AgentNames lists the agents that have a branch, sorted.
func (rd *Reader) AgentNames() ([]string, error) { return rd.e.AgentNames() }

// ReadFile returns the file at p as the first of branches that has it, then
// global, then every other branch, in name order: records are read from
// git, never from the disk. A record's file is read from global first
// when global has it, as every view reads it: global's copy is the one
// promote marked. It returns the branch it was found on.
func (rd *Reader) ReadFile(p string, branches ...string) ([]byte, string, error) {
	return rd.e.ReadFile(p, branches...)
}

// FileAt returns the content of the file at p in commit's tree; an error
// wrapping os.ErrNotExist when there is none. Small files near the top of
// the tree come from the commit's listing, without opening git.
func (rd *Reader) FileAt(commit staterepo.Hash, p string) ([]byte, error) {
	return rd.e.FileAt(commit, p)
}

// DirSize counts the entries of the directory top/sub in branch's tree
// (learnings/auth, say): 0 when there is none. A count of a directory that
// did not change reads no object from git: what learn's check of a
// domain's size needs to stay a write's cost.
func (rd *Reader) DirSize(branch, top, sub string) (int, error) {
	return rd.e.DirSize(branch, top, sub)
}

// AsOf says which past a pinned reader reads: the moment, and the commit of
// global that held the team's memory then.
type AsOf struct {
	Spec   string    `json:"as_of"`
	Time   time.Time `json:"time"`
	Global string    `json:"global"`
}

// PinAsOf makes every later read of rd read the memory as it was at spec:
// a date (2026-11-02, meaning the end of that day in UTC), a time
// (RFC 3339), or a commit of the state repository. Each branch is read at
// its newest first-parent commit at or before that moment; a branch that
// did not exist yet is left out. A commit pins the branch whose line holds
// it to itself, and every other branch to the commit's time. Reading the past
// is reading git: the records of those trees go through the same cache as
// today's.
func (rd *Reader) PinAsOf(ctx context.Context, spec string) (AsOf, error) {
	at, global, err := rd.e.PinAsOf(ctx, spec)
	if err != nil {
		return AsOf{}, err
	}
	return AsOf{Spec: spec, Time: at, Global: global.String()}, nil
}

// Pinned reports whether rd reads a moment in the past (PinAsOf): then what
// a worktree holds on disk is not what the memory said, and readers take
// files from the pinned commits instead.
func (rd *Reader) Pinned() bool { return rd.e.Pinned() }

// Tip is the commit a read of branch reads: the branch's tip, or its commit
// at the moment rd is pinned to.
func (rd *Reader) Tip(branch string) (staterepo.Hash, error) { return rd.e.Tip(branch) }
