package lifecycle

import (
	"errors"
	"strings"
	"testing"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/ringgraph"
	"github.com/planq-dev/planq/planqerr"
)

// checkVersions asks the version index (what edit, revalidate, dedupe and
// restore act through) about each of ids, within the deadline, and holds
// each answer to what the graph is: a version on a ring is refused in
// validate's words with the hint that breaks it; a current version is
// given; a replaced one names a version to act on that is not replaced in
// turn (no hint sends the user round in circles).
func checkVersions(t *testing.T, recs []*changelog.Record, ids []string) {
	t.Helper()
	onRing := ringgraph.Rings(recs)
	var problems []string
	ringgraph.Within(t, ringgraph.Deadline, "the version index", func() {
		v := index(recs)
		replacedBy := map[string]bool{}
		for _, r := range recs {
			replacedBy[r.Supersedes] = true
		}
		for _, id := range ids {
			r := v.byID[id]
			got, err := v.current(id)
			var pe *planqerr.Error
			errors.As(err, &pe)
			switch {
			case r.Tombstone:
				if err == nil {
					problems = append(problems, id+": a tombstone given as current")
				}
			case onRing[id]:
				named := pe != nil && (strings.Contains(pe.Error(), " -> "+id) || strings.Contains(pe.Error(), id+" -> "))
				if !named || pe.Kind != planqerr.Corrupt || !strings.Contains(pe.Hint, "planq validate --fix") {
					problems = append(problems, id+": on a ring, answered "+describe(got, err))
				}
			case !replacedBy[id]:
				if err != nil || got != r {
					problems = append(problems, id+": current, answered "+describe(got, err))
				}
			case pe != nil && strings.Contains(pe.Error(), "is superseded by"):
				act, ok := strings.CutPrefix(pe.Hint, "act on the current version: ")
				if !ok || act == id {
					problems = append(problems, id+": hint "+pe.Hint)
					break
				}
				if _, err := v.current(act); err != nil && strings.Contains(err.Error(), "is superseded by") {
					problems = append(problems, id+": sends the user to "+act+", which "+err.Error())
				}
			case err == nil:
				problems = append(problems, id+": replaced, but given as current")
			}
		}
	})
	for _, p := range problems {
		t.Error(p)
	}
}

func describe(r *changelog.Record, err error) string {
	if err != nil {
		return err.Error()
	}
	return "current " + r.ID
}

func allIDs(recs []*changelog.Record) []string {
	ids := make([]string, len(recs))
	for i, r := range recs {
		ids[i] = r.ID
	}
	return ids
}

// Issue 36: two versions that superseded each other made 'planq edit' and
// 'planq revalidate' (the version index's walk to the current version)
// spin forever. Every shape of graph is answered, at once.
func TestRingVersionIndexIsBounded(t *testing.T) {
	for seed := range uint64(200) {
		recs := ringgraph.Random(seed, 40)
		checkVersions(t, recs, allIDs(recs))
		if t.Failed() {
			t.Fatalf("seed %d", seed)
		}
	}
}

func TestRingVersionIndexOfALongChain(t *testing.T) {
	var b ringgraph.Builder
	at := b.Chain(10_000)
	b.Link(at[0], at[len(at)-1]) // and then a ring of all ten thousand
	ring := b.Records
	var b2 ringgraph.Builder
	b2.Chain(10_000)
	sample := []string{ringgraph.ID(0), ringgraph.ID(1), ringgraph.ID(5_000), ringgraph.ID(9_998), ringgraph.ID(9_999)}
	checkVersions(t, b2.Records, sample)
	checkVersions(t, ring, sample)
}

// FuzzRingVersionIndex walks the version index through graphs of
// supersedes drawn from the fuzzer's bytes; CI runs it with -fuzz.
func FuzzRingVersionIndex(f *testing.F) {
	f.Add([]byte{0x05, 1, 0x01, 2})             // two versions that supersede each other
	f.Add([]byte{0x01, 0})                      // one that supersedes itself
	f.Add([]byte{0x00, 0, 0x01, 1, 0x05, 2})    // a chain
	f.Add([]byte{0x09, 0, 0x01, 1, 0x85, 3, 0}) // a ring, retracted
	f.Fuzz(func(t *testing.T, data []byte) {
		recs := ringgraph.FromBytes(data)
		checkVersions(t, recs, allIDs(recs))
	})
}
