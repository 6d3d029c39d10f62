package agent

import (
	"path/filepath"
	"sort"
	"strings"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// Store is a project's state repository opened for reading and writing records.
type Store struct {
	Project *project.Project
	Repo    *staterepo.Repo
	cache   *changelog.Cache
	loader  *changelog.Loader
}

// OpenStore opens the project's state repository and its record cache.
func OpenStore(p *project.Project) (*Store, error) {
	repo, err := staterepo.Open(p.StateRepo())
	if err != nil {
		return nil, err
	}
	cache := changelog.OpenCache(filepath.Join(p.CacheDir(), "records.gob"))
	read := func(id changelog.BlobID) ([]byte, error) { return repo.ReadBlob(staterepo.Hash(id)) }
	return &Store{Project: p, Repo: repo, cache: cache, loader: changelog.NewLoader(read, cache)}, nil
}

// Close saves what the cache learned. Losing it costs only time.
func (s *Store) Close() error { return s.cache.Save() }

// BranchRecords loads every record in branch's tree.
func (s *Store) BranchRecords(branch string) ([]*changelog.Record, error) {
	tip, err := s.Repo.Tip(branch)
	if err != nil {
		return nil, err
	}
	return s.loadDirs([]staterepo.Hash{tip}, nil)
}

// AllRecords loads every record on global and on every agent branch, each
// once, oldest first; with dirs, only the records of those kind directories.
func (s *Store) AllRecords(dirs ...string) ([]*changelog.Record, error) {
	branches, err := s.Repo.Branches("")
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(branches))
	for name := range branches {
		if name == staterepo.GlobalBranch || strings.HasPrefix(name, staterepo.AgentBranchPrefix) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	tips := make([]staterepo.Hash, len(names))
	for i, n := range names {
		tips[i] = branches[n]
	}
	return s.loadDirs(tips, dirs)
}

// CommitRecords loads the records under the given kind directories (all
// kinds when none) of one commit, oldest first.
func (s *Store) CommitRecords(commit staterepo.Hash, dirs ...string) ([]*changelog.Record, error) {
	return s.loadDirs([]staterepo.Hash{commit}, dirs)
}

func (s *Store) loadDirs(tips []staterepo.Hash, dirs []string) ([]*changelog.Record, error) {
	if len(dirs) == 0 {
		dirs = changelog.Dirs()
	}
	seen := map[string]bool{}
	var files []changelog.File
	for _, tip := range tips {
		fs, err := s.Repo.Walk(tip, dirs, seen)
		if err != nil {
			return nil, err
		}
		for _, f := range fs {
			files = append(files, changelog.File{Path: f.Path, Blob: changelog.BlobID(f.Blob)})
		}
	}
	recs, err := s.loader.Load(files)
	recs = dedupe(recs)
	changelog.SortByTime(recs)
	return recs, err
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
func (s *Store) AgentNames() ([]string, error) {
	branches, err := s.Repo.Branches(staterepo.AgentBranchPrefix)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(branches))
	for b := range branches {
		names = append(names, strings.TrimPrefix(b, staterepo.AgentBranchPrefix))
	}
	sort.Strings(names)
	return names, nil
}
