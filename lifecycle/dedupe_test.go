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

// groups is the partition u makes of n records, as sorted lists of indexes.
func groups(u *union, n int) [][]int {
	byRoot := map[int][]int{}
	for i := range n {
		byRoot[u.find(i)] = append(byRoot[u.find(i)], i)
	}
	var out [][]int
	for _, g := range byRoot {
		if len(g) > 1 {
			out = append(out, g)
		}
	}
	slices.SortFunc(out, func(a, b []int) int { return a[0] - b[0] })
	return out
}

func TestNearGroupsRewordingsNotTopics(t *testing.T) {
	recs := []*changelog.Record{
		learning("Tokens expire after 15 minutes; refresh on 401"),
		learning("tokens expire after 15 minutes, refresh them on a 401"),
		learning("Tokens are stored in an httpOnly cookie, never in localStorage"),
		learning("Token refresh happens on 401 responses from the API gateway"),
		{Kind: changelog.KindDecision, Decision: "Tokens expire after 15 minutes; refresh on 401"},
	}
	u := newUnion(len(recs))
	joinNear(recs, u)
	if got := groups(u, len(recs)); !slices.EqualFunc(got, [][]int{{0, 1}}, slices.Equal) {
		t.Errorf("near groups %v, want only the rewording [0 1] (same topic is not the same learning; kinds never group)", got)
	}
}

// TestNearGroupsAreWhatComparingAllMakes: prefix filtering and skipping
// pairs already grouped are exact, not heuristics: on random texts over a
// small vocabulary (so that many are alike), the groups are those that
// comparing every pair makes.
func TestNearGroupsAreWhatComparingAllMakes(t *testing.T) {
	vocab := strings.Fields("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa")
	grouped := 0
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
		want := newUnion(len(recs))
		for i := range recs {
			for j := i + 1; j < len(recs); j++ {
				a, b := termSet(recs[i].Body), termSet(recs[j].Body)
				if len(a) >= minNearWords && len(b) >= minNearWords && alikeByCount(a, b) {
					want.join(i, j, ReasonNear)
				}
			}
		}
		got := newUnion(len(recs))
		joinNear(recs, got)
		g, w := groups(got, len(recs)), groups(want, len(recs))
		if !slices.EqualFunc(g, w, slices.Equal) {
			t.Fatalf("seed %d: joinNear made %d groups, comparing all %d\n got  %v\n want %v", seed, len(g), len(w), g, w)
		}
		for _, x := range w {
			grouped += len(x)
		}
	}
	if grouped < 100 {
		t.Fatalf("only %d records grouped in all seeds: the test does not exercise the filter", grouped)
	}
}

func termSet(text string) []string {
	ws := search.Terms(text)
	slices.Sort(ws)
	return slices.Compact(ws)
}

// alikeByCount is Jaccard >= 4/5 counted plainly: both/(|a|+|b|-both) >= 4/5.
func alikeByCount(a, b []string) bool {
	both := 0
	for _, w := range a {
		if slices.Contains(b, w) {
			both++
		}
	}
	return 5*both >= 4*(len(a)+len(b)-both)
}
