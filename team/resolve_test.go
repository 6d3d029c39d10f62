package team

import (
	"fmt"
	"testing"
	"time"

	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// branchVersion is a branch context file as planq writes it, updated at t.
func branchVersion(body string, t time.Time) []byte {
	return []byte(fmt.Sprintf("---\nbranch: feature/x\ncreated_at: 2026-11-01T00:00:00Z\nupdated_at: %s\nagent: a\nstatus: active\n---\n%s\n", t.Format(time.RFC3339Nano), body))
}

// TestBranchContextKeepsTheLaterUpdate: when both sides changed a branch's
// context, the merge keeps the version with the later updated_at, whichever
// side it is on and whichever side merges; at the same instant it keeps the
// same one either way; and it reports the version it did not keep.
func TestBranchContextKeepsTheLaterUpdate(t *testing.T) {
	repo := testRepo(t)
	path := project.BranchContextPath("feature/x")
	at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	write := func(data []byte) staterepo.Hash {
		h, err := repo.WriteBlob(data)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	base := write(branchVersion("base", at))
	older := write(branchVersion("older edit", at.Add(time.Minute)))
	newer := write(branchVersion("newer edit", at.Add(2*time.Minute)))
	tieA := write(branchVersion("tie a", at.Add(3*time.Minute)))
	tieB := write(branchVersion("tie b", at.Add(3*time.Minute)))

	for _, c := range []struct {
		name         string
		ours, theirs staterepo.Hash
		want         staterepo.Hash
	}{
		{"newer is theirs", older, newer, newer},
		{"newer is ours", newer, older, newer},
		{"tie, one way", tieA, tieB, max2(tieA, tieB)},
		{"tie, the other way", tieB, tieA, max2(tieA, tieB)},
	} {
		rs := &resolver{repo: repo}
		got, err := rs.resolve(path, base, c.ours, c.theirs)
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("%s: kept %s, want %s", c.name, got, c.want)
		}
		other := c.ours
		if got == c.ours {
			other = c.theirs
		}
		if len(rs.choices) != 1 || rs.choices[0].Kept != got.String() || rs.choices[0].Other != other.String() || rs.choices[0].Path != path {
			t.Errorf("%s: reported %+v, want one choice keeping %s over %s", c.name, rs.choices, got, other)
		}
	}

	// Deleted on one side, changed on the other: the change stays.
	rs := &resolver{repo: repo}
	if got, _ := rs.resolve(path, base, staterepo.ZeroHash, newer); got != newer {
		t.Errorf("deleted here, changed there: kept %s, want the change %s", got, newer)
	}
	// Deleted on one side, unchanged on the other: it goes.
	if got, _ := rs.resolve(path, base, staterepo.ZeroHash, base); !got.IsZero() {
		t.Errorf("deleted here, unchanged there: kept %s, want it deleted", got)
	}
}

func max2(a, b staterepo.Hash) staterepo.Hash {
	if a.String() > b.String() {
		return a
	}
	return b
}
