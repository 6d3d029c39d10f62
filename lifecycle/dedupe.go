package lifecycle

import (
	"context"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/plural"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/search"
)

// NearThreshold is how alike two records' words must be to be near
// duplicates: the Jaccard similarity of their sets of (stemmed) words. At
// 0.8, "Tokens expire after 15 minutes; refresh on 401" and "tokens expire
// after 15 minutes, refresh them on a 401" group; two learnings that share
// a topic but say different things do not (dedupe_test.go holds both).
const NearThreshold = float64(nearNum) / nearDen

// The threshold as a fraction, so that every bound is counted in whole
// words, never rounded.
const (
	nearNum = 4
	nearDen = 5
)

// minNearWords keeps short texts out of near matching: on three words, one
// word's difference is the whole meaning.
const minNearWords = 4

// Copy is one record of a duplicate group.
type Copy struct {
	ID       string         `json:"id"`
	Kind     changelog.Kind `json:"kind"`
	Agent    string         `json:"agent"`
	Domain   string         `json:"domain,omitempty"`
	Title    string         `json:"title"`
	Time     time.Time      `json:"time"`
	OnGlobal bool           `json:"on_global"`
}

// Group is records that say the same thing: exact (the same words, once
// case, spacing and final punctuation are folded) or near (the same
// subject, or nearly the same words). Keep is the one dedupe keeps.
type Group struct {
	Kind       changelog.Kind `json:"kind"`
	Reason     string         `json:"reason"`
	Keep       Copy           `json:"keep"`
	Duplicates []Copy         `json:"duplicates"`
}

// Reasons a group was formed.
const (
	ReasonExact = "exact"
	ReasonNear  = "near"
	// ReasonSimilar is a group of records whose meaning the search model
	// finds alike (SimilarCosine) though their words differ: the same
	// thing said in other words, or two facts about one thing ("tokens
	// expire after 15 minutes" and "... after 60 minutes"). A person
	// judges which: dedupe shows such a group and never retracts from it.
	ReasonSimilar = "similar"
)

// SimilarCosine is how alike by meaning two records must be, the cosine of
// the vectors search ranks them by, to be shown as a similar group: the
// search package's bar for the same meaning.
const SimilarCosine = search.AlikeCosine

// FindDuplicates groups the current learnings and decisions of global and
// every agent branch (each record once) that say the same thing, across
// agents and domains. In each group it keeps the record global holds, then
// the one citing most sources, then the oldest. Groups come largest first,
// the similar ones (by meaning, when the project has a search model) after
// the others.
func FindDuplicates(ctx context.Context, store *agent.Store) ([]Group, error) {
	set, err := store.Records.All(changelog.KindLearning, changelog.KindDecision)
	if err != nil {
		return nil, err
	}
	global, err := store.Records.Branch(project.GlobalBranch, changelog.KindLearning, changelog.KindDecision)
	if err != nil {
		return nil, err
	}
	onGlobal := make(map[string]bool, len(global.Records))
	for _, r := range global.Records {
		onGlobal[r.ID] = true
	}
	recs := set.Current()
	uf := newUnion(len(recs))
	exact := map[string]int{}
	subject := map[string]int{}
	for i, r := range recs {
		if j, ok := exact[exactKey(r)]; ok {
			uf.join(i, j, ReasonExact)
		} else {
			exact[exactKey(r)] = i
		}
		if r.Subject == "" {
			continue
		}
		key := string(r.Kind) + "\x00" + strings.ToLower(strings.Join(strings.Fields(r.Subject), " "))
		if j, ok := subject[key]; ok {
			uf.join(i, j, ReasonNear)
		} else {
			subject[key] = i
		}
	}
	joinNear(recs, uf)
	groups := formGroups(recs, uf, onGlobal)
	if alone := similarCandidates(recs, uf); len(alone) > 1 {
		of := make([]*changelog.Record, len(alone))
		for k, i := range alone {
			of[k] = recs[i]
		}
		// Only these are embedded: a project's near duplicates are
		// many, and a model may be an endpoint.
		if vecs, _ := store.Records.Meanings(ctx, of); vecs != nil {
			similar := newUnion(len(recs))
			joinSimilar(recs, alone, vecs, similar)
			groups = append(groups, formGroups(recs, similar, onGlobal)...)
		}
	}
	return groups, nil
}

// formGroups makes the groups of two or more records that u joined, each
// keeping its best record, largest first.
func formGroups(recs []*changelog.Record, uf *union, onGlobal map[string]bool) []Group {
	members := map[int][]int{}
	for i := range recs {
		root := uf.find(i)
		members[root] = append(members[root], i)
	}
	var groups []Group
	for root, idx := range members {
		if len(idx) < 2 {
			continue
		}
		copies := make([]Copy, len(idx))
		for k, i := range idx {
			r := recs[i]
			copies[k] = Copy{ID: r.ID, Kind: r.Kind, Agent: r.Agent, Domain: r.Domain, Title: readmodel.Title(r), Time: r.Timestamp, OnGlobal: onGlobal[r.ID]}
		}
		sources := map[string]int{}
		for _, i := range idx {
			sources[recs[i].ID] = len(recs[i].Sources)
		}
		sort.Slice(copies, func(a, b int) bool {
			ca, cb := copies[a], copies[b]
			switch {
			case ca.OnGlobal != cb.OnGlobal:
				return ca.OnGlobal
			case sources[ca.ID] != sources[cb.ID]:
				return sources[ca.ID] > sources[cb.ID]
			case !ca.Time.Equal(cb.Time):
				return ca.Time.Before(cb.Time)
			}
			return ca.ID < cb.ID
		})
		groups = append(groups, Group{Kind: recs[root].Kind, Reason: uf.reason[root], Keep: copies[0], Duplicates: copies[1:]})
	}
	sort.Slice(groups, func(a, b int) bool {
		if len(groups[a].Duplicates) != len(groups[b].Duplicates) {
			return len(groups[a].Duplicates) > len(groups[b].Duplicates)
		}
		return groups[a].Keep.ID < groups[b].Keep.ID
	})
	return groups
}

// similarCandidates are the records that similar groups may hold, by
// index: those near left alone (a record near groups with others is left
// to that group: dedupe keeps one of it, and the next dedupe compares that
// one), of minNearWords words or more ("use ruff" and "use black" share
// all their meaning but one word).
func similarCandidates(recs []*changelog.Record, near *union) []int {
	size := map[int]int{}
	for i := range recs {
		size[near.find(i)]++
	}
	var alone []int
	for i, r := range recs {
		if size[near.find(i)] == 1 && len(search.Terms(saying(r))) >= minNearWords {
			alone = append(alone, i)
		}
	}
	return alone
}

// joinSimilar joins in similar the records of idx (indexes of recs) of one
// kind and domain whose vectors (vecs, in idx's order) have a cosine of at
// least SimilarCosine: what words alone left apart. A record with no
// vector (no word the model knows) joins nothing. Only records of one kind
// and domain are compared: what two domains say is not one fact twice, and
// it keeps the pairs compared to the records of one domain squared.
func joinSimilar(recs []*changelog.Record, idx []int, vecs [][]float32, similar *union) {
	blocks := map[string][]int{}
	for k, i := range idx {
		if k < len(vecs) && len(vecs[k]) > 0 {
			key := string(recs[i].Kind) + "\x00" + recs[i].Domain
			blocks[key] = append(blocks[key], k)
		}
	}
	for _, block := range blocks {
		for a, k := range block {
			for _, l := range block[a+1:] {
				i, j := idx[k], idx[l]
				if similar.find(i) != similar.find(j) && search.Cosine(vecs[k], vecs[l]) >= SimilarCosine {
					similar.join(i, j, ReasonSimilar)
				}
			}
		}
	}
}

// exactKey is what a record says, folded: a learning's text and resolution,
// a decision's choice and rationale; its domain and type left out, so the
// same words filed under two domains are one learning.
func exactKey(r *changelog.Record) string {
	fold := func(s string) string {
		s = strings.Join(strings.Fields(strings.ToLower(s)), " ")
		return strings.TrimRight(s, ".!;:, ")
	}
	if r.Kind == changelog.KindDecision {
		return "decision\x00" + fold(r.Decision) + "\x00" + fold(r.Rationale)
	}
	return "learning\x00" + fold(r.Body) + "\x00" + fold(r.Resolution)
}

// joinNear joins in u the records of one kind whose word sets have a
// Jaccard similarity of at least NearThreshold, without comparing every
// pair: each set's words are ordered rarest first, and two sets that alike
// must share a word among the first len - ceil(t*len) + 1 of each (prefix
// filtering), so only records sharing such a word are compared; and a pair
// already in one group is not compared again, so many near-identical
// records cost a pass, not a square.
func joinNear(recs []*changelog.Record, u *union) {
	sets := make([][]int32, len(recs))
	kinds := make([]bool, len(recs)) // a decision, else a learning
	ids := map[string]int32{}
	var freq []int
	for i, r := range recs {
		kinds[i] = r.Kind == changelog.KindDecision
		for _, t := range search.Terms(saying(r)) {
			id, ok := ids[t]
			if !ok {
				id = int32(len(freq))
				ids[t] = id
				freq = append(freq, 0)
			}
			sets[i] = append(sets[i], id)
		}
		slices.Sort(sets[i])
		sets[i] = slices.Compact(sets[i])
		for _, id := range sets[i] {
			freq[id]++
		}
	}
	index := map[int32][]int{}
	rare := make([]int32, 0, 64)
	for i, words := range sets {
		if len(words) < minNearWords {
			continue
		}
		rare = append(rare[:0], words...)
		slices.SortFunc(rare, func(a, b int32) int {
			if freq[a] != freq[b] {
				return freq[a] - freq[b]
			}
			return int(a - b)
		})
		prefix := len(rare) - (nearNum*len(rare)+nearDen-1)/nearDen + 1 // len - ceil(t len) + 1
		root := u.find(i)
		for _, w := range rare[:prefix] {
			for _, j := range index[w] {
				if kinds[i] != kinds[j] || u.find(j) == root || !alike(sets[i], sets[j]) {
					continue
				}
				u.join(j, i, ReasonNear)
				root = u.find(i)
			}
			index[w] = append(index[w], i)
		}
	}
}

// saying is what near and similar compare of a record: a learning's text,
// a decision's choice and rationale.
func saying(r *changelog.Record) string {
	if r.Kind == changelog.KindDecision {
		return r.Decision + " " + r.Rationale
	}
	return r.Body
}

// alike reports whether two sorted sets' Jaccard similarity reaches
// NearThreshold, giving up as soon as the words left cannot make it.
func alike(a, b []int32) bool {
	// |a ∩ b| / |a ∪ b| >= n/d  <=>  |a ∩ b| >= n (|a| + |b|) / (n + d)
	need := (nearNum*(len(a)+len(b)) + nearNum + nearDen - 1) / (nearNum + nearDen)
	both := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		if both+min(len(a)-i, len(b)-j) < need {
			return false
		}
		switch {
		case a[i] == b[j]:
			both++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return both >= need
}

// union is a union-find over record indexes that remembers why each group
// formed: exact until a near match joins it.
type union struct {
	parent []int
	reason map[int]string
}

func newUnion(n int) *union {
	u := &union{parent: make([]int, n), reason: map[int]string{}}
	for i := range u.parent {
		u.parent[i] = i
	}
	return u
}

func (u *union) find(i int) int {
	for u.parent[i] != i {
		u.parent[i] = u.parent[u.parent[i]]
		i = u.parent[i]
	}
	return i
}

func (u *union) join(a, b int, reason string) {
	ra, rb := u.find(a), u.find(b)
	why := reason
	if reason != ReasonSimilar && (u.reason[ra] == ReasonNear || u.reason[rb] == ReasonNear) {
		why = ReasonNear
	}
	if ra != rb {
		u.parent[rb] = ra
	}
	u.reason[ra] = why
}

// Dedupe keeps one record of each group and retracts the others (of a
// similar group, none: a person judges those), each with
// a tombstone that names the one kept: one commit on the agent's branch,
// which promote carries to global like any retraction. Nothing is deleted.
func Dedupe(ctx context.Context, a *agent.Agent, groups []Group, opts agent.WriteOptions) ([]agent.Written, error) {
	set, err := a.Store().Records.All(changelog.KindLearning, changelog.KindDecision)
	if err != nil {
		return nil, err
	}
	v := index(set.Records)
	var tombs []*changelog.Record
	for _, g := range groups {
		if g.Reason == ReasonSimilar {
			continue // a person's to judge
		}
		for _, d := range g.Duplicates {
			r, err := v.current(d.ID)
			if err != nil {
				return nil, err
			}
			t, err := changelog.NewTombstone(r, "duplicate of "+g.Keep.ID)
			if err != nil {
				return nil, err
			}
			t.DependsOn = []string{g.Keep.ID}
			tombs = append(tombs, t)
		}
	}
	if len(tombs) == 0 {
		return nil, nil
	}
	return a.WriteMany(ctx, tombs, "dedupe: retract "+plural.Of(len(tombs), "duplicate")+" of "+plural.Of(len(groups), "record"), opts)
}
