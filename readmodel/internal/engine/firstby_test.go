package engine

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestFirstByIsTheHeadOfASort: the heap's first k are a full sort's, in
// rank order and newest first alike.
func TestFirstByIsTheHeadOfASort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		n := rng.IntN(300)
		refs := make([]Ref, n)
		for i := range refs {
			// Distinct times: ties would need the records' IDs.
			refs[i] = Ref{priority: uint8(rng.IntN(5)), at: rng.Int64N(1<<20)<<20 | int64(i)}
		}
		k := rng.IntN(n+2) - 1 // 0 or less keeps all
		order := []func(a, b Ref) int{byRank, NewestFirst}[round%2]
		all := slices.Clone(refs)
		slices.SortFunc(all, order)
		got := FirstBy(refs, k, order)
		want := all
		if k > 0 {
			want = all[:min(k, n)]
		}
		if len(got) != len(want) {
			t.Fatalf("round %d: %d refs, want %d", round, len(got), len(want))
		}
		for i := range want {
			if got[i].priority != want[i].priority || got[i].at != want[i].at {
				t.Fatalf("round %d: ref %d is %+v, want %+v", round, i, got[i], want[i])
			}
		}
	}
}

// byRank is how the team view ranks: by priority, newest first.
func byRank(a, b Ref) int {
	if a.priority != b.priority {
		return int(a.priority) - int(b.priority)
	}
	return NewestFirst(a, b)
}
