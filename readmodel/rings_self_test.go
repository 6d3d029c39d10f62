package readmodel

import (
	"strings"
	"testing"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testrecords"
	"github.com/planq-dev/planq/project"
)

// A learning that names itself in supersedes (as an import of mulch data
// wrote them before the import dropped such links) is shown by every
// reader, and validate says what it is.
func TestASelfSupersedingLearningIsShown(t *testing.T) {
	r, err := changelog.NewLearning(changelog.LearningInput{Text: "zebra crossings need a second look", Type: changelog.TypeConvention, Domain: "roads"})
	if err != nil {
		t.Fatal(err)
	}
	r.Agent, r.Timestamp, r.Origin = "a", time.Date(2026, 4, 2, 11, 0, 0, 0, time.UTC), "mulch:mx-a43b7f"
	r.ID = changelog.NewID(r.Agent, r.Kind, r.Body, r.Timestamp)
	r.Supersedes = r.ID
	repo := testrecords.RepoWith(t, testrecords.Rendered(t, []*changelog.Record{r}))
	rd := Open(repo, t.TempDir())
	learnings, _, _, err := rd.Learnings(LearningFilter{Domains: []string{"roads"}})
	if err != nil || len(learnings) != 1 || learnings[0].ID != r.ID {
		t.Fatalf("learnings %v, %v: want %s", learnings, err, r.ID)
	}
	res, err := rd.Search(Query{Text: "zebra crossings"})
	if err != nil || len(res.Hits) != 1 || res.Hits[0].ID != r.ID {
		t.Fatalf("search %+v, %v: want %s", res, err, r.ID)
	}
	set, err := rd.Branch(project.GlobalBranch, changelog.KindLearning)
	if err != nil || len(set.Current()) != 1 {
		t.Fatalf("global's current: %v, %v", set, err)
	}
	if got := RingProblem([]string{"pq-1", "pq-2"}); !strings.HasPrefix(got, "versions supersede each other in a ring: pq-1 -> pq-2 -> pq-1") {
		t.Errorf("a ring of two: %q", got)
	}
	findings, err := rd.Validate()
	if err != nil {
		t.Fatal(err)
	}
	want := "the record supersedes itself: " + r.ID + " -> " + r.ID
	for _, f := range findings {
		if f.Check == CheckCycle && f.Problem == want {
			return
		}
	}
	t.Errorf("validate said %+v, not %q", findings, want)
}
