package testrecords

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// Samples are one record of each kind made by the constructors, stamped as
// a writer would.
func Samples(t *testing.T) []*changelog.Record {
	t.Helper()
	at := time.Date(2026, 11, 22, 6, 5, 33, 0, time.UTC)
	var recs []*changelog.Record
	add := func(r *changelog.Record, err error) {
		t.Helper()
		recs = append(recs, Stamped(t, r, err, "auth", at.Add(time.Duration(len(recs))*time.Minute)))
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

// Stamped is r, made by a constructor that answered err, written by agent
// at at, with the ID a writer would give it; an error fails the test.
func Stamped(t testing.TB, r *changelog.Record, err error, agent string, at time.Time) *changelog.Record {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	r.Agent, r.Timestamp = agent, at
	r.ID = changelog.NewID(r.Agent, r.Kind, r.Body, r.Timestamp)
	return r
}

// RepoWith makes a state repository whose global holds files.
func RepoWith(t *testing.T, files map[string][]byte) *staterepo.Repo {
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

// Rendered is a global branch's files holding recs, beside the skeleton
// and a scratch file.
func Rendered(t *testing.T, recs []*changelog.Record) map[string][]byte {
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

// BranchWithOneMore makes agent-auth: global and one record more, of the
// kind and shard of like but saying body, written an hour later.
func BranchWithOneMore(t *testing.T, repo *staterepo.Repo, like *changelog.Record, body string) changelog.Record {
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

// Questions are searches each of which finds at least one of Samples.
var Questions = []string{"JWT validation", "RS256 public keys", "review the refresh", "go test hangs", "hang"}

// AskAll asks each of Questions through ask, which answers with its hits
// and how many there are, and fails the test on an error or no hit.
func AskAll[R any](t testing.TB, ask func(q string) (R, int, error)) []R {
	t.Helper()
	var out []R
	for _, q := range Questions {
		res, hits, err := ask(q)
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		if hits == 0 {
			t.Fatalf("%q found nothing", q)
		}
		out = append(out, res)
	}
	return out
}
