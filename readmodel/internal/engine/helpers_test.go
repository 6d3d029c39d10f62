package engine

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/search"
	"github.com/planq-dev/planq/staterepo"
)

// samples are one record of each kind made by the constructors, stamped as
// a writer would.
func samples(t *testing.T) []*changelog.Record {
	t.Helper()
	at := time.Date(2026, 11, 22, 6, 5, 33, 0, time.UTC)
	var recs []*changelog.Record
	add := func(r *changelog.Record, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		r.Agent, r.Timestamp = "auth", at.Add(time.Duration(len(recs))*time.Minute)
		r.ID = changelog.NewID(r.Agent, r.Kind, r.Body, r.Timestamp)
		recs = append(recs, r)
	}
	add(changelog.NewLog(changelog.LogInput{Text: "Added JWT validation"}))
	add(changelog.NewLearning(changelog.LearningInput{Text: "go test hangs", Type: changelog.TypeFailure, Domain: "ci", Resolution: "set -p 1"}))
	add(changelog.NewDecision(changelog.DecisionInput{Decision: "Use RS256", Alternatives: []string{"HS256"}, Rationale: "public keys"}))
	add(changelog.NewHandoff(changelog.HandoffInput{Text: "Review the refresh", To: "reviewer"}))
	add(changelog.NewCheckpoint(changelog.CheckpointInput{Name: "before-refactor"}))
	add(changelog.NewNote(changelog.NoteInput{Text: "the dashboard is built with make dashboard, not npm run build", Workspace: "auth", AgentKind: "claude"}))
	add(changelog.NewProposal(changelog.ProposalInput{Summary: "CLAUDE.md: how to build the dashboard",
		Files: []changelog.ProposedFile{{Path: "CLAUDE.md", Blob: strings.Repeat("b", 40), Additions: 1}},
		Used:  []string{recs[len(recs)-1].ID}}))
	return recs
}

// repoWith makes a state repository whose global holds files.
func repoWith(t *testing.T, files map[string][]byte) *staterepo.Repo {
	t.Helper()
	testgit.Isolate(t)
	path := filepath.Join(t.TempDir(), "state.git")
	if _, err := staterepo.Init(context.Background(), path, files); err != nil {
		t.Fatal(err)
	}
	repo, err := staterepo.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return repo
}

func rendered(t *testing.T, recs []*changelog.Record) map[string][]byte {
	t.Helper()
	files := changelog.Skeleton()
	files[project.ScratchFile] = []byte("# Scratch\n")
	for _, r := range recs {
		data, err := changelog.Render(r)
		if err != nil {
			t.Fatal(err)
		}
		files[changelog.RecordPath(r)] = data
	}
	return files
}

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
	return rd.Store.Search(tips, kinds, nil, search.Query{Phrasings: []string{q.Text}, Limit: 8})
}

// indexAt is where a segment file's search index begins: its last record's
// bytes end 1 before.
func indexAt(data []byte) int {
	return len(data) - int(uint32At(data, 5))
}

// branchWithOneMore makes agent-auth: global and one record more, of the
// kind and shard of like but saying body, written an hour later.
func branchWithOneMore(t *testing.T, repo *staterepo.Repo, like *changelog.Record, body string) changelog.Record {
	t.Helper()
	added := *like
	added.Body, added.Timestamp = body, added.Timestamp.Add(time.Hour)
	added.ID = changelog.NewID(added.Agent, added.Kind, added.Body, added.Timestamp)
	data, err := changelog.Render(&added)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := repo.CreateBranch(context.Background(), "agent-auth", project.GlobalBranch,
		map[string][]byte{changelog.RecordPath(&added): data}, "one more"); err != nil {
		t.Fatal(err)
	}
	return added
}
