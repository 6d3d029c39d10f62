// Package ringgraph gives the tests of every reader and writer that
// follows supersedes the graphs that have made such walks loop: versions
// that supersede each other in rings of 2 and more, records that supersede
// themselves, chains of ten thousand versions, diamonds (two versions of
// one record), links to records no branch holds, and retractions on all of
// them; and a deadline, so that a walk that loops fails its test instead
// of hanging it.
//
// Role: test support. It lives under internal/testkit, which only _test.go
// files may import (a depguard rule in .golangci.yml).
package ringgraph

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/planq-dev/planq/changelog"
)

// Deadline is how long a walk of any graph here may take: each is walked
// in well under a second; only a loop takes longer.
const Deadline = 20 * time.Second

// Within runs fn and fails t if it has not returned within d: a walk that
// loops fails the test (its goroutine spins on until the test binary
// exits). fn must not call t.FailNow; it may call t.Errorf.
func Within(t testing.TB, d time.Duration, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-done:
	case <-timer.C:
		t.Fatalf("%s did not return within %v: a walk of supersedes loops", what, d)
	}
}

// ID is the i-th ID of a graph.
func ID(i int) string { return fmt.Sprintf("pq-%010x", i+1) }

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Builder makes the records of a graph, one learning per call of Add.
type Builder struct {
	Records []*changelog.Record
}

// Add adds a learning written minutes after the epoch (equal times make
// ties), superseding the one of index supersedes (-1: none; an index not
// added yet, or ever, is a link to a record no branch holds), and returns
// its index.
func (b *Builder) Add(minutes, supersedes int) int {
	i := len(b.Records)
	r := &changelog.Record{ID: ID(i), Kind: changelog.KindLearning, Type: changelog.TypeGuide, Domain: "ring",
		Classification: changelog.Foundational, Agent: "a", Timestamp: epoch.Add(time.Duration(minutes) * time.Minute),
		Body: fmt.Sprintf("version %d", i)}
	if supersedes >= 0 {
		r.Supersedes = ID(supersedes)
	}
	r.Path = changelog.RecordPath(r)
	b.Records = append(b.Records, r)
	return i
}

// Retract adds the tombstone of the record of index i.
func (b *Builder) Retract(minutes, i int) int {
	k := b.Add(minutes, i)
	b.Records[k].Tombstone = true
	b.Records[k].Body = "retracted " + ID(i)
	return k
}

// Link makes the record of index i supersede the one of index to.
func (b *Builder) Link(i, to int) { b.Records[i].Supersedes = ID(to) }

// Ring adds n versions, each superseding the one before, the first the
// last: a ring of n (of one, a record that supersedes itself).
func (b *Builder) Ring(rng *rand.Rand, n int) []int {
	var at []int
	for k := range n {
		at = append(at, b.Add(rng.IntN(5), -1))
		if k > 0 {
			b.Link(at[k], at[k-1])
		}
	}
	b.Link(at[0], at[n-1])
	return at
}

// Chain adds n versions, each superseding the one before, the newest last.
func (b *Builder) Chain(n int) []int {
	at := []int{b.Add(0, -1)}
	for k := 1; k < n; k++ {
		at = append(at, b.Add(k, at[k-1]))
	}
	return at
}

// Random is a graph of every shape, drawn from seed: rings of 2 to 7
// (some retracted, some with a version from outside superseding one of
// theirs), records that supersede themselves, chains (to length chain),
// diamonds and links to no record.
func Random(seed uint64, chain int) []*changelog.Record {
	rng := rand.New(rand.NewPCG(seed, seed>>32|1))
	var b Builder
	for range 1 + rng.IntN(6) {
		switch rng.IntN(6) {
		case 0, 1:
			ring := b.Ring(rng, 2+rng.IntN(6))
			if rng.IntN(3) == 0 {
				b.Retract(10, ring[rng.IntN(len(ring))])
			}
			if rng.IntN(3) == 0 {
				b.Add(rng.IntN(10), ring[rng.IntN(len(ring))]) // a tail into the ring
			}
		case 2:
			b.Ring(rng, 1)
		case 3:
			at := b.Chain(2 + rng.IntN(max(chain-1, 1)))
			if rng.IntN(2) == 0 {
				b.Retract(chain+1, at[len(at)-1])
			}
		case 4: // a diamond: two versions of one, one of them edited again
			base := b.Add(0, -1)
			left, _ := b.Add(1, base), b.Add(1, base)
			b.Add(2, left)
		case 5:
			b.Add(rng.IntN(3), 1_000_000+rng.IntN(10)) // a version of a record no branch holds
		}
	}
	return b.Records
}

// FromBytes is a graph drawn from data, for fuzzing: up to 64 versions,
// each superseding any (itself included) or none, some retractions, times
// that tie.
func FromBytes(data []byte) []*changelog.Record {
	n := min(len(data)/2, 64)
	var b Builder
	for i := range n {
		link, at := int(data[2*i]), int(data[2*i+1])
		to := -1
		if link&3 != 0 {
			to = (link >> 2) % (n + 1) // n: a record no branch holds
		}
		k := b.Add(at%8, to)
		if to >= 0 && link&0x80 != 0 {
			b.Records[k].Tombstone = true
		}
	}
	return b.Records
}

// Rings is, by a way of its own (peeling off, again and again, the
// versions nothing supersedes), the set of IDs on rings of recs: with one
// supersedes each, what no peeling reaches is a ring.
func Rings(recs []*changelog.Record) map[string]bool {
	links := map[string]string{}
	for _, r := range recs {
		if _, ok := links[r.ID]; !ok {
			links[r.ID] = r.Supersedes
		}
	}
	in := map[string]int{}
	for _, to := range links {
		if _, ok := links[to]; ok {
			in[to]++
		}
	}
	var free []string
	for id := range links {
		if in[id] == 0 {
			free = append(free, id)
		}
	}
	gone := map[string]bool{}
	for len(free) > 0 {
		id := free[len(free)-1]
		free = free[:len(free)-1]
		gone[id] = true
		if to, ok := links[id]; ok {
			if _, held := links[to]; held {
				if in[to]--; in[to] == 0 {
					free = append(free, to)
				}
			}
		}
	}
	out := map[string]bool{}
	for id := range links {
		if !gone[id] {
			out[id] = true
		}
	}
	return out
}

// Newest is the newest version of ring by time, ties by the greater ID:
// the one readers show, and that stays current when it is broken.
func Newest(recs []*changelog.Record, ring []string) string {
	on := make(map[string]bool, len(ring))
	for _, id := range ring {
		on[id] = true
	}
	var best *changelog.Record
	for _, r := range recs {
		if !on[r.ID] {
			continue
		}
		if best == nil || r.Timestamp.After(best.Timestamp) || (r.Timestamp.Equal(best.Timestamp) && r.ID > best.ID) {
			best = r
		}
	}
	return best.ID
}
