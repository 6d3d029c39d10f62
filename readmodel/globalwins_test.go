package readmodel

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testrecords"
	"github.com/planq-dev/planq/project"
)

// A record on global and on an agent branch reads as global holds it, for
// every reader: promote marks global's copy disputed and leaves the
// agent's as the agent wrote it (issue 25, item 8). The agent's branch
// sorts before global, so a reader that kept the first copy by branch name
// read the agent's.
func TestGlobalsCopyOfARecordWins(t *testing.T) {
	at := time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)
	r, err := changelog.NewLearning(changelog.LearningInput{Text: "the port is 9090", Type: changelog.TypeReference, Domain: "net", Subject: "port"})
	if err != nil {
		t.Fatal(err)
	}
	r.Agent, r.Timestamp = "auth", at
	r.ID = changelog.NewID(r.Agent, r.Kind, r.Body, r.Timestamp)
	mine, err := changelog.Render(r)
	if err != nil {
		t.Fatal(err)
	}
	disputed := *r
	disputed.Status = changelog.StatusDisputed
	repo := testrecords.RepoWith(t, testrecords.Rendered(t, []*changelog.Record{&disputed}))
	p := changelog.RecordPath(r)
	if _, err := repo.CreateBranch(t.Context(), project.AgentBranch("auth"), project.GlobalBranch, map[string][]byte{p: mine}, "as the agent wrote it"); err != nil {
		t.Fatal(err)
	}
	for round := range 2 { // the second from the views the first kept
		rd := Open(repo, t.TempDir())
		st, _, err := rd.Status(context.Background(), at.Add(time.Hour), ShelfLife, "")
		if err != nil || len(st) != 1 || st[0].Disputed != 1 {
			t.Errorf("round %d: status %+v, %v: want one disputed", round, st, err)
		}
		recs, _, _, err := rd.Learnings(LearningFilter{})
		if err != nil || len(recs) != 1 || recs[0].Status != changelog.StatusDisputed {
			t.Errorf("round %d: learnings %v, %v: want the disputed copy", round, recs, err)
		}
		all, err := rd.All(changelog.KindLearning)
		if err != nil || len(all.Records) != 1 || all.Records[0].Status != changelog.StatusDisputed {
			t.Errorf("round %d: all %v, %v: want the disputed copy", round, all.Records, err)
		}
		res, err := rd.Search(Query{Text: "port 9090"})
		if err != nil || len(res.Hits) != 1 || !strings.Contains(res.Hits[0].Header(), "[disputed]") {
			t.Errorf("round %d: search %+v, %v: want the disputed copy", round, res.Hits, err)
		}
		versions, err := rd.History(r.ID, false)
		if err != nil || versions[0].Record.Status != changelog.StatusDisputed {
			t.Errorf("round %d: history %v, %v: want the disputed copy", round, versions, err)
		}
		ex, err := rd.Get(p, 0, 0, project.AgentBranch("auth"))
		if err != nil || !strings.Contains(ex.Text, "status: disputed") || ex.Branch != project.GlobalBranch {
			t.Errorf("round %d: get from the agent's branch first read %s:\n%s\n%v", round, ex.Branch, ex.Text, err)
		}
	}
}
