package agent

import (
	"context"

	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/staterepo"
)

// Store is a project's state repository opened for reading and writing records.
type Store struct {
	Project *project.Project
	Repo    *staterepo.Repo
	// Records reads the records, through the project's record cache.
	Records *readmodel.Reader
}

// OpenStore opens the project's state repository and its record cache. Its
// reader reports its builds from git to the readmodel.Progress ctx carries.
func OpenStore(ctx context.Context, p *project.Project) (*Store, error) {
	// Before Open: a missing repository's own error would send the user to
	// 'planq init', which must not make a new one over an agent's history.
	if err := staterepo.CheckMounts(p); err != nil {
		return nil, err
	}
	repo, err := staterepo.Open(p.StateRepo())
	if err != nil {
		return nil, err
	}
	rd := readmodel.Open(repo, p.CacheDir())
	rd.ReportBuilds(readmodel.ProgressOf(ctx))
	return &Store{Project: p, Repo: repo, Records: rd}, nil
}

// Close saves what the record cache learned. Losing it costs only time.
func (s *Store) Close() error { return s.Records.Close() }

// AgentNames lists the agents that have a branch, sorted.
func (s *Store) AgentNames() ([]string, error) { return s.Records.AgentNames() }
