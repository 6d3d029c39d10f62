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
// checked), sorted by domain; and the files that did not read. It counts
// from the read model's tally of each domain (engine.Store.StatusTallies):
// what moves with the clock, the weeks and shelf lives, from the times
// kept sorted there, the uses, and the anchored learnings alone.
func (rd *Reader) Status(ctx context.Context, now time.Time, life ShelfLives, codeDir string) ([]DomainStatus, []string, error) {
	tips, err := rd.e.Tips()
	if err != nil {
		return nil, nil, err
	}
	tallies, problems, ok, err := rd.e.StatusTallies(tips)
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		return rd.statusWalk(ctx, now, life, codeDir)
	}
	lastUse, err := rd.LastUses()
	if err != nil {
		return nil, nil, err
	}
	used := recentUses(lastUse, life, now)
	out := make([]DomainStatus, len(tallies))
	of := map[string]int{}
	var anchored []*changelog.Record
	for i, d := range tallies {
		week := func(at time.Time) int { return weekKey(at, now) }
		out[i] = DomainStatus{Domain: d.Domain, Current: d.Current, Superseded: d.Superseded, Retracted: d.Retracted,
			Archived: d.Archived, Disputed: d.Disputed, ByType: d.ByType, ByClassification: d.ByClassification,
			Newest: d.Newest, Oldest: d.Oldest, PastShelfLife: pastShelfLife(d, life, used, now),
			Weekly: d.Written().Buckets(TrendWeeks, week), DisputedWeekly: d.DisputedTimes().Buckets(TrendWeeks, week)}
		out[i].Flattening = flattening(out[i].Weekly)
		out[i].Governance = governance(out[i].Current)
		of[d.Domain] = i
		anchored = append(anchored, d.Anchored()...)
	}
	stale := CheckAnchors(ctx, codeDir, anchored)
	for _, r := range anchored {
		if len(stale.Notes[r.ID]) > 0 {
			out[of[r.Domain]].Stale++
		}
	}
	return out, problemLines(problems), nil
}

// weekKey is which of the last TrendWeeks weeks, before now, a learning
// written at at was written in (oldest 0); -1 for before them, TrendWeeks
// for after now: never lower for a later time, as Times.Buckets needs.
func weekKey(at, now time.Time) int {
	if age := now.Sub(at); age < 0 {
		return TrendWeeks
	} else if age < TrendWeeks*7*24*time.Hour {
		return TrendWeeks - 1 - int(age/(7*24*time.Hour))
	}
	return -1
}

// use is a record's last use, by the hash of its ID.
type use struct {
	id   uint64
	last time.Time
}

// recentUses are the uses recent enough to keep a learning of some shelf
// life fresh.
func recentUses(lastUse map[string]time.Time, life ShelfLives, now time.Time) []use {
	var longest time.Duration
	for _, l := range life {
		longest = max(longest, l)
	}
	var out []use
	for id, last := range lastUse {
		if now.Sub(last) <= longest {
			out = append(out, use{engine.IDHash(id), last})
		}
	}
	return out
}

// pastShelfLife counts d's current learnings past their shelf life (see
// ShelfLives.Expired): those written before it began, but for those used
// since.
func pastShelfLife(d *engine.DomainTally, life ShelfLives, used []use, now time.Time) int {
	n := 0
	for _, class := range d.Classes() {
		if l, ok := life[changelog.Classification(class)]; ok {
			n += d.ClassTimes(class).While(func(at time.Time) bool { return now.Sub(at) > l })
		}
	}
	for _, u := range used {
		at, class, ok := d.CurrentLearning(u.id)
		if !ok {
			continue
		}
		if l, ok := life[changelog.Classification(class)]; ok && now.Sub(at) > l && u.last.After(at) && now.Sub(u.last) <= l {
			n-- // used since: fresh again
		}
	}
	return n
}

// statusWalk is Status by a walk over every learning, which Status answers
// alike; what it answers when the tallies leave it to a walk.
func (rd *Reader) statusWalk(ctx context.Context, now time.Time, life ShelfLives, codeDir string) ([]DomainStatus, []string, error) {
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
	if week := weekKey(r.Timestamp, now); week < TrendWeeks {
		return week
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
