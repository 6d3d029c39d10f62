package lifecycle

import (
	"context"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/embed"
	"github.com/planq-dev/planq/internal/testkit/testmodel"
	"github.com/planq-dev/planq/internal/testkit/testproject"
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

// Records of one kind and domain whose vectors are alike join a similar
// group, unless words grouped them with others already; other domains,
// other kinds and records with no vector join nothing.
func TestSimilarJoinsMeaningNotWords(t *testing.T) {
	in := func(domain, text string) *changelog.Record {
		return &changelog.Record{Kind: changelog.KindLearning, Domain: domain, Body: text}
	}
	recs := []*changelog.Record{
		in("auth", "session tokens expire quickly everywhere"), in("auth", "access credentials lapse soon afterwards"), // alike
		in("auth", "passwords hashed with argon2id"),                                                // another meaning
		in("billing", "invoice totals skip draft invoices"),                                         // alike, another domain
		{Kind: changelog.KindDecision, Domain: "auth", Decision: "rotate signing keys every month"}, // alike, another kind
		in("auth", "refresh cookies renew silently overnight"),                                      // alike, but near grouped it with 2 already
		in("auth", "cookie storage policy documented somewhere"),                                    // no vector
		in("auth", "tokens expire"),                                                                 // alike, too short
	}
	alike := []float32{0.6, 0.8}
	slightly := []float32{0.8, 0.6} // cosine 0.96
	vecs := [][]float32{alike, slightly, {0, 1}, alike, alike, alike, nil, alike}
	near := newUnion(len(recs))
	near.join(2, 5, ReasonNear)
	alone := similarCandidates(recs, near)
	if !slices.Equal(alone, []int{0, 1, 3, 4, 6}) {
		t.Errorf("candidates %v, want all but the near pair and the short one", alone)
	}
	of := make([][]float32, len(alone))
	for k, i := range alone {
		of[k] = vecs[i]
	}
	similar := newUnion(len(recs))
	joinSimilar(recs, alone, of, similar)
	if got := groups(similar, len(recs)); !slices.EqualFunc(got, [][]int{{0, 1}}, slices.Equal) {
		t.Errorf("similar groups %v, want [0 1]", got)
	}
	if similar.reason[similar.find(0)] != ReasonSimilar {
		t.Errorf("the group's reason is %q, want %q", similar.reason[similar.find(0)], ReasonSimilar)
	}
	// Below the bar: 0.6*0.8+0.8*0.6 = 0.96 joins; 0.92 would not.
	if SimilarCosine > 0.96 || SimilarCosine <= 0.9 {
		t.Errorf("SimilarCosine %v: the vectors above were chosen for a bar in (0.9, 0.96]", SimilarCosine)
	}
}

// With a search model, FindDuplicates shows two learnings that say one
// thing in other words as a similar group, after the groups words make,
// and Dedupe retracts from the word groups only.
func TestDedupeShowsSimilarAndRetractsNone(t *testing.T) {
	store, a := testproject.Auth(t)
	ctx := context.Background()
	model, err := testmodel.Synonyms("tokens", "expire lapse", "15 quarter", "minutes hour", "passwords", "hashed", "argon2id")
	if err != nil {
		t.Fatal(err)
	}
	store.Records.UseModel(func(context.Context) (embed.Model, error) { return model, nil })
	learn := func(text string) *changelog.Record {
		r, err := changelog.NewLearning(changelog.LearningInput{Text: text, Type: changelog.TypePattern, Domain: "auth"})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	expire, lapse := learn("Tokens expire after 15 minutes"), learn("Tokens lapse after a quarter hour")
	hashed := learn("Passwords are hashed with argon2id")
	exact := learn("Passwords are hashed with argon2id.")
	if _, err := a.WriteMany(ctx, []*changelog.Record{expire, lapse, hashed, exact}, "learnings", agent.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	found, err := FindDuplicates(ctx, store)
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 2 || found[0].Reason != ReasonExact || found[1].Reason != ReasonSimilar {
		t.Fatalf("groups %+v, want an exact group, then a similar one", found)
	}
	sim := []string{found[1].Keep.ID, found[1].Duplicates[0].ID}
	slices.Sort(sim)
	want := []string{expire.ID, lapse.ID}
	slices.Sort(want)
	if !slices.Equal(sim, want) {
		t.Errorf("similar group %v, want the two token learnings %v", sim, want)
	}
	written, err := Dedupe(ctx, a, found, agent.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(written) != 1 {
		t.Fatalf("dedupe wrote %d tombstones, want the exact duplicate's alone", len(written))
	}
	set, err := store.Records.All(changelog.KindLearning)
	if err != nil {
		t.Fatal(err)
	}
	current := map[string]bool{}
	for _, r := range set.Current() {
		current[r.ID] = true
	}
	for _, id := range want {
		if !current[id] {
			t.Errorf("learning %s of the similar group was retracted; want it current", id)
		}
	}
	if current[exact.ID] == current[hashed.ID] {
		t.Errorf("of the exact pair, current: %v and %v; want one retracted", current[hashed.ID], current[exact.ID])
	}

	// Without a model, words alone: the similar group is not formed.
	store.Records.UseModel(nil)
	found, err = FindDuplicates(ctx, store)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range found {
		if g.Reason == ReasonSimilar {
			t.Errorf("a similar group without a model: %+v", g)
		}
	}
}
