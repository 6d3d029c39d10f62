package curation

import (
	"strings"
	"testing"
	"time"

	"github.com/planq-dev/planq/changelog"
)

// TestProposeCitingANoteOnARingEnds: two notes that supersede each other
// (only plain git writes them) made the look for the newest version of a
// cited note go round for ever. The proposal is refused with validate's
// words instead.
func TestProposeCitingANoteOnARingEnds(t *testing.T) {
	note := func(id, supersedes string) *changelog.Record {
		return &changelog.Record{ID: id, Kind: changelog.KindNote, Type: "operational", Status: changelog.StatusRaw,
			Supersedes: supersedes, Timestamp: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Body: "run the tests with -p 1"}
	}
	recs := []*changelog.Record{note("pq-00000000a1", "pq-00000000b2"), note("pq-00000000b2", "pq-00000000a1")}
	done := make(chan error, 1)
	go func() {
		_, err := rawNotes(recs, Proposal{EntriesUsed: []string{"pq-00000000a1"}})
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "versions supersede each other in a ring") {
			t.Fatalf("a note on a ring: got %v, want validate's ring error", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("rawNotes still looking for the newest version of a note on a ring after 20 s")
	}
}
