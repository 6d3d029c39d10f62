package readmodel

import (
	"context"
	"sort"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/readmodel/internal/engine"
)

// Size governance: how many current learnings a domain should hold, when
// it should be split, and past which learn refuses more.
const (
	DomainTarget  = 100
	DomainWarning = 150
	DomainLimit   = 200
)

// ShelfLife is how long a learning of each classification stays fresh; a
// foundational one (absent here) never expires.
var ShelfLife = map[changelog.Classification]time.Duration{
	changelog.Tactical:      14 * 24 * time.Hour,
	changelog.Observational: 30 * 24 * time.Hour,
}

// TrendWeeks is how many recent weeks the insight rate covers.
const TrendWeeks = 8

// DomainStatus is the state of one domain's learnings.
type DomainStatus struct {
	Domain     string `json:"domain"`
	Current    int    `json:"current"`
	Superseded int    `json:"superseded"`
	Retracted  int    `json:"retracted"`
	// Archived counts the learnings prune took out of the current view and
	// no restore brought back (planq archive list).
	Archived         int            `json:"archived"`
	Disputed         int            `json:"disputed"`
	ByType           map[string]int `json:"by_type"`
	ByClassification map[string]int `json:"by_classification"`
	Newest           time.Time      `json:"newest"`
	Oldest           time.Time      `json:"oldest"`
	// PastShelfLife counts current learnings unused for longer than their
	// classification's shelf life: what 'planq prune' would archive.
	PastShelfLife int `json:"past_shelf_life"`
	// DisputedWeekly counts the current disputed learnings by the week they
	// were written, over the same weeks as Weekly: whether contradictions
	// grow or settle.
	DisputedWeekly []int `json:"disputed_weekly"`
	// Stale counts current learnings some of whose anchored code files
	// changed or went since they were written (see CheckAnchors).
	Stale int `json:"stale"`
	// Weekly counts the learnings written in each of the last TrendWeeks
	// weeks, oldest first; Flattening says the last half of them brought
	// at most half as many as the first.
	Weekly     []int  `json:"weekly"`
	Flattening bool   `json:"flattening"`
	Governance string `json:"governance"`
}

// Governance levels.
const (
	GovernanceOK        = "ok"
	GovernanceOver      = "over target"
	GovernanceSplit     = "split the domain"
	GovernanceHardLimit = "at the hard limit"
)

// Status describes every domain's learnings on global and every agent
// branch (each record once), as of now, with the project's shelf lives and
// their anchors checked against the code checkout at codeDir ("": not
// checked), sorted by domain; and the files that did not read.
func (rd *Reader) Status(ctx context.Context, now time.Time, life ShelfLives, codeDir string) ([]DomainStatus, []string, error) {
	set, err := rd.All(changelog.KindLearning)
	if err != nil {
		return nil, nil, err
	}
	lastUse, err := rd.LastUses()
	if err != nil {
		return nil, nil, err
	}
	replacedBy := engine.Successors(set.Records) // of a ring of versions, the newest is current
	byDomain := map[string]*DomainStatus{}
	var current []*changelog.Record
	for _, r := range set.Records {
		if r.Tombstone {
			continue // a retraction, counted on what it retracts
		}
		d := byDomain[r.Domain]
		if d == nil {
			d = &DomainStatus{Domain: r.Domain, ByType: map[string]int{}, ByClassification: map[string]int{},
				Weekly: make([]int, TrendWeeks), DisputedWeekly: make([]int, TrendWeeks)}
			byDomain[r.Domain] = d
		}
		week := weekOf(r, now)
		if week >= 0 {
			d.Weekly[week]++
		}
		if d.countReplaced(replacedBy, r) {
			continue
		}
		current = append(current, r)
		d.countCurrent(r, week, life.Expired(r, lastUse[r.ID], now))
	}
	stale := CheckAnchors(ctx, codeDir, current)
	for _, r := range current {
		if len(stale.Notes[r.ID]) > 0 {
			byDomain[r.Domain].Stale++
		}
	}
	out := make([]DomainStatus, 0, len(byDomain))
	for _, d := range byDomain {
		d.Flattening = flattening(d.Weekly)
		d.Governance = governance(d.Current)
		out = append(out, *d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Domain < out[j].Domain })
	return out, set.ProblemLines(), nil
}

// weekOf is which of the last TrendWeeks weeks, before now, r was written
// in (oldest 0); -1 for none.
func weekOf(r *changelog.Record, now time.Time) int {
	if age := now.Sub(r.Timestamp); age >= 0 && age < TrendWeeks*7*24*time.Hour {
		return TrendWeeks - 1 - int(age/(7*24*time.Hour))
	}
	return -1
}

// countReplaced counts r if a later version, an archive record or a
// retraction replaces it, and says whether one does.
func (d *DomainStatus) countReplaced(replacedBy map[string]*changelog.Record, r *changelog.Record) bool {
	switch next := replacedBy[r.ID]; {
	case next == nil:
		return false
	case next.Archived && replacedBy[next.ID] != nil:
		d.Superseded++ // archived, then restored as a new version: current again
	case next.Archived:
		d.Archived++
	case next.Tombstone:
		d.Retracted++
	default:
		d.Superseded++
	}
	return true
}

// countCurrent counts the current learning r, written in week (-1 for
// none of the last weeks), expired when past its shelf life.
func (d *DomainStatus) countCurrent(r *changelog.Record, week int, expired bool) {
	d.Current++
	d.ByType[string(r.Type)]++
	d.ByClassification[string(r.Classification)]++
	if r.Status == changelog.StatusDisputed {
		d.Disputed++
		if week >= 0 {
			d.DisputedWeekly[week]++
		}
	}
	if r.Timestamp.After(d.Newest) {
		d.Newest = r.Timestamp
	}
	if d.Oldest.IsZero() || r.Timestamp.Before(d.Oldest) {
		d.Oldest = r.Timestamp
	}
	if expired {
		d.PastShelfLife++
	}
}

// flattening says the last half of the weeks brought at most half as many
// learnings as the first.
func flattening(weekly []int) bool {
	first, last := 0, 0
	for i, n := range weekly {
		if i < TrendWeeks/2 {
			first += n
		} else {
			last += n
		}
	}
	return first > 0 && 2*last <= first
}

func governance(current int) string {
	switch {
	case current >= DomainLimit:
		return GovernanceHardLimit
	case current >= DomainWarning:
		return GovernanceSplit
	case current > DomainTarget:
		return GovernanceOver
	}
	return GovernanceOK
}
