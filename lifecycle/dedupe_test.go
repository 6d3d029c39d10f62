package lifecycle

import (
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/search"
)

func learning(text string) *changelog.Record {
	return &changelog.Record{Kind: changelog.KindLearning, Body: text}
}

func TestNearPairsGroupRewordingsNotTopics(t *testing.T) {
	recs := []*changelog.Record{
		learning("Tokens expire after 15 minutes; refresh on 401"),
		learning("tokens expire after 15 minutes, refresh them on a 401"),
		learning("Tokens are stored in an httpOnly cookie, never in localStorage"),
		learning("Token refresh happens on 401 responses from the API gateway"),
		{Kind: changelog.KindDecision, Decision: "Tokens expire after 15 minutes; refresh on 401"},
	}
	got := nearPairs(recs)
	if !slices.Equal(got, [][2]int{{0, 1}}) {
		t.Errorf("near pairs %v, want only the rewording [0 1] (same topic is not the same learning; kinds never pair)", got)
	}
}

// TestNearPairsFindWhatComparingAllFinds: prefix filtering is exact, not a
// heuristic: on random texts over a small vocabulary (so that many pairs
// are alike), it finds exactly the pairs that comparing every pair finds.
func TestNearPairsFindWhatComparingAllFinds(t *testing.T) {
	vocab := strings.Fields("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa")
	found := 0
	for seed := range 20 {
		rng := rand.New(rand.NewSource(int64(seed)))
		var recs []*changelog.Record
		for range 150 {
			n := 3 + rng.Intn(6)
			words := make([]string, n)
			for i := range words {
				words[i] = vocab[rng.Intn(4+seed%12)]
			}
			recs = append(recs, learning(strings.Join(words, " ")))
		}
		var want [][2]int
		for i := range recs {
			for j := i + 1; j < len(recs); j++ {
				a, b := distinct(search.Terms(recs[i].Body)), distinct(search.Terms(recs[j].Body))
				if len(a) >= minNearWords && len(b) >= minNearWords && jaccard(a, b) >= NearThreshold {
					want = append(want, [2]int{i, j})
				}
			}
		}
		got := nearPairs(recs)
		slices.SortFunc(got, func(x, y [2]int) int {
			if x[0] != y[0] {
				return x[0] - y[0]
			}
			return x[1] - y[1]
		})
		if !slices.Equal(got, want) {
			t.Fatalf("seed %d: nearPairs found %d pairs, comparing all %d\n got  %v\n want %v", seed, len(got), len(want), got, want)
		}
		found += len(want)
	}
	if found < 100 {
		t.Fatalf("only %d alike pairs in all seeds: the test does not exercise the filter", found)
	}
}

func distinct(ws []string) []string {
	slices.Sort(ws)
	return slices.Compact(ws)
}
