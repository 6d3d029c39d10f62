package engine

import (
	"context"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/search"
	"github.com/planq-dev/planq/staterepo"
)

// counting opens a store that counts the blobs it reads from git.
func counting(repo *staterepo.Repo, cacheDir string, reads *int) testReader {
	rd := open(repo, cacheDir)
	rd.readBlob = func(h staterepo.Hash) ([]byte, error) {
		*reads++
		return repo.ReadBlob(h)
	}
	return rd
}

// testReader reads a store as package readmodel's Reader does, for the
// tests of what the engine keeps.
type testReader struct{ *Store }

func open(repo *staterepo.Repo, cacheDir string) testReader { return testReader{Open(repo, cacheDir)} }

// loaded is what a load found, as readmodel.Set holds it.
type loaded struct {
	Records  []*changelog.Record
	Problems []*changelog.ParseError
}

func (s loaded) ProblemLines() []string {
	out := make([]string, len(s.Problems))
	for i, p := range s.Problems {
		out[i] = p.Error()
	}
	return out
}

func (rd testReader) Close() error { return nil }

// Branch loads every record of branch.
func (rd testReader) Branch(branch string) (loaded, error) {
	tip, err := rd.Tip(branch)
	if err != nil {
		return loaded{}, err
	}
	recs, problems, err := rd.Load([]staterepo.Hash{tip}, nil)
	return loaded{recs, problems}, err
}

// All loads every record of global and every agent branch.
func (rd testReader) All() (loaded, error) {
	tips, err := rd.Tips()
	if err != nil {
		return loaded{}, err
	}
	recs, problems, err := rd.Load(tips, nil)
	return loaded{recs, problems}, err
}

// Query is a search as planq search asks it by default: one phrasing, of
// every kind searched, on every branch.
type Query struct{ Text string }

func (rd testReader) Search(q Query) (Found, error) {
	tips, err := rd.Tips()
	if err != nil {
		return Found{}, err
	}
	kinds := changelog.KindsWhere(func(s *changelog.Spec) bool { return s.Searched })
	return rd.Store.Search(context.Background(), tips, kinds, nil, search.Query{Phrasings: []string{q.Text}, Limit: 8}, nil)
}

// indexAt is where a segment file's search index begins: its last record's
// bytes end 1 before.
func indexAt(data []byte) int {
	return len(data) - int(uint32At(data, 5))
}
