package readmodel

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/planq-dev/planq/internal/testkit/testrecords"
	"github.com/planq-dev/planq/project"
)

// heard is a Progress that keeps what it was told.
type heard struct {
	parsed []int
	built  int
	// parsedAtBuilt is the count of Parsed calls when Built came.
	parsedAtBuilt []int
}

func (h *heard) Parsed(n int) { h.parsed = append(h.parsed, n) }
func (h *heard) Built()       { h.built++; h.parsedAtBuilt = append(h.parsedAtBuilt, len(h.parsed)) }

// TestBuildsReportTheirProgress: a build from git counts each record it
// reads, in order, and says once that it is done (a directory's build
// builds its shards inside it); a warm read reports nothing, and a reader
// opened with a context that carries no Progress still reads.
func TestBuildsReportTheirProgress(t *testing.T) {
	recs := testrecords.Samples(t)
	repo := testrecords.RepoWith(t, testrecords.Rendered(t, recs))
	cacheDir := filepath.Join(t.TempDir(), "cache")

	var h heard
	rd := Open(repo, cacheDir)
	rd.ReportBuilds(ProgressOf(WithProgress(context.Background(), &h)))
	if _, err := rd.Branch(project.GlobalBranch); err != nil {
		t.Fatal(err)
	}
	if len(h.parsed) != len(recs) {
		t.Fatalf("a cold build reported %v parsed, want 1..%d", h.parsed, len(recs))
	}
	for i, n := range h.parsed {
		if n != i+1 {
			t.Fatalf("parsed counts %v, want 1, 2, ...", h.parsed)
		}
	}
	// One read of every kind's directory (each built of its shards) is one
	// build: Built once, after the last record.
	if h.built != 1 || h.parsedAtBuilt[0] != len(recs) {
		t.Fatalf("Built %d times, after %v records: want once, after all %d", h.built, h.parsedAtBuilt, len(recs))
	}

	var warm heard
	again := Open(repo, cacheDir)
	again.ReportBuilds(&warm)
	if _, err := again.Branch(project.GlobalBranch); err != nil {
		t.Fatal(err)
	}
	if len(warm.parsed) != 0 || warm.built != 0 {
		t.Errorf("a warm read reported %v parsed and %d builds", warm.parsed, warm.built)
	}

	if _, ok := ProgressOf(context.Background()).(silent); !ok {
		t.Errorf("a context without a Progress gives %T, want the silent one", ProgressOf(context.Background()))
	}
}
