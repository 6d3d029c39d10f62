package team

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/ringgraph"
	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/staterepo"
)

// Promote's ring check (refuseRings) ends on every graph of supersedes,
// refuses exactly the landings that hold a ring, in validate's words, and
// says how to break it.
func TestRingPromoteCheckIsBounded(t *testing.T) {
	testgit.Isolate(t)
	path := filepath.Join(t.TempDir(), "state.git")
	if _, err := staterepo.Init(t.Context(), path, changelog.Skeleton()); err != nil {
		t.Fatal(err)
	}
	repo, err := staterepo.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	tip, err := repo.Tip(project.GlobalBranch)
	if err != nil {
		t.Fatal(err)
	}
	global, err := readmodel.Open(repo, t.TempDir()).Holdings(tip)
	if err != nil {
		t.Fatal(err)
	}
	check := func(recs []*changelog.Record) {
		t.Helper()
		candidates := make([]Candidate, len(recs))
		for i, r := range recs {
			candidates[i] = Candidate{ID: r.ID, record: r, original: r}
		}
		var err error
		ringgraph.Within(t, ringgraph.Deadline, "promote's ring check", func() { err = refuseRings(global, candidates) })
		rings := changelog.SupersedesRings(recs)
		var pe *planqerr.Error
		switch {
		case len(rings) == 0 && err != nil:
			t.Errorf("no ring, refused: %v", err)
		case len(rings) > 0 && !planqerr.Is(err, planqerr.Corrupt):
			t.Errorf("rings %v, answered %v", rings, err)
		case len(rings) > 0:
			if !strings.Contains(err.Error(), readmodel.RingProblem(rings[0])) {
				t.Errorf("rings %v, refused as %v", rings, err)
			}
			if errors.As(err, &pe); pe == nil || !strings.Contains(pe.Hint, "planq validate --fix") {
				t.Errorf("hint %q", pe.Hint)
			}
		}
	}
	for seed := range uint64(100) {
		check(ringgraph.Random(seed, 40))
		if t.Failed() {
			t.Fatalf("seed %d", seed)
		}
	}
	var b ringgraph.Builder
	at := b.Chain(10_000)
	check(b.Records)
	b.Link(at[0], at[len(at)-1])
	check(b.Records)
}
