package team

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/planq-dev/planq/branchctx"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

func TestMain(m *testing.M) { os.Exit(testgit.RunIsolated(m)) }

// testRepo is a new state repository, in the test binary's isolated HOME.
func testRepo(t *testing.T) *staterepo.Repo {
	t.Helper()
	path := filepath.Join(t.TempDir(), "state.git")
	if _, err := staterepo.Init(context.Background(), path, changelog.Skeleton()); err != nil {
		t.Fatal(err)
	}
	r, err := staterepo.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

var mergeSeeds = flag.Int("merge.seeds", 1000, "random histories TestMergeProperties merges")

// A side of a merge: the files of its tip, path to content.
type files map[string][]byte

func (f files) clone() files {
	out := make(files, len(f))
	for p, d := range f {
		out[p] = d
	}
	return out
}

// gen writes random histories for the merge property test. Its operations
// aim at the hard cases: both sides changing the same path, timestamps
// that tie, deletions on one side against edits on the other, records of
// every kind, branch contexts ordered by updated_at, a plain file ordered by
// nothing but its content.
type gen struct {
	t    *testing.T
	repo *staterepo.Repo
	rng  *rand.Rand
	// pool are records both sides may add at the same path, with contents
	// of their own: a collision on a path neither base had.
	pool []*changelog.Record
	// seen are the files of the commits this generator made or read.
	seen map[staterepo.Hash]files
}

// filesAt are commit's files, read once.
func (g *gen) filesAt(commit staterepo.Hash) files {
	if f, ok := g.seen[commit]; ok {
		return f
	}
	f := filesOf(g.t, g.repo, commit)
	g.seen[commit] = f
	return f
}

// id draws a record ID from the seed, so that a seed replays exactly.
func (g *gen) id() string { return fmt.Sprintf("%s%010x", changelog.IDPrefix, g.rng.Uint64()>>24) }

// stamp draws a time on a coarse grid, so that versions often tie.
func (g *gen) stamp() time.Time {
	return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(g.rng.IntN(12)) * time.Minute)
}

var genKinds = []changelog.Kind{changelog.KindLearning, changelog.KindDecision, changelog.KindHandoff, changelog.KindLog, changelog.KindCheckpoint}

// record makes a valid record of kind, written by side.
func (g *gen) record(kind changelog.Kind, side string, n int) *changelog.Record {
	text := fmt.Sprintf("%s wrote %s %d (%d)", side, kind, n, g.rng.IntN(1000))
	var r *changelog.Record
	var err error
	switch kind {
	case changelog.KindLearning:
		r, err = changelog.NewLearning(changelog.LearningInput{Text: text, Type: changelog.TypePattern, Domain: fmt.Sprintf("d%d", g.rng.IntN(2))})
	case changelog.KindDecision:
		r, err = changelog.NewDecision(changelog.DecisionInput{Decision: text, Rationale: "because " + side})
	case changelog.KindHandoff:
		r, err = changelog.NewHandoff(changelog.HandoffInput{Text: text})
	case changelog.KindLog:
		r, err = changelog.NewLog(changelog.LogInput{Text: text})
	case changelog.KindCheckpoint:
		r, err = changelog.NewCheckpoint(changelog.CheckpointInput{Name: fmt.Sprintf("cp-%d", n), Note: text})
	case changelog.KindNote:
		r, err = changelog.NewNote(changelog.NoteInput{Text: text, Workspace: side})
	case changelog.KindProposal:
		r, err = changelog.NewProposal(changelog.ProposalInput{Summary: text, Discarded: map[string]string{g.id(): "covered"}})
	case changelog.KindArticle:
		g.t.Fatalf("%s is a document, no record a merge generates", kind)
	}
	if err != nil {
		g.t.Fatal(err)
	}
	r.Agent, r.Timestamp, r.ID = side, g.stamp(), g.id()
	return r
}

func (g *gen) render(r *changelog.Record) []byte {
	data, err := changelog.Render(r)
	if err != nil {
		g.t.Fatal(err)
	}
	return data
}

func (g *gen) branchContext(side string, n int) []byte {
	c := branchctx.New("feature/x", side, g.stamp())
	c.UpdatedAt = g.stamp()
	c.Body = fmt.Sprintf("## Plan\n\n%s's plan, take %d (%d)\n", side, n, g.rng.IntN(1000))
	data, err := c.Render()
	if err != nil {
		g.t.Fatal(err)
	}
	return data
}

// pick returns a path of f under one of dirs, or "".
func (g *gen) pick(f files, record bool) string {
	var ps []string
	for p := range f {
		if changelog.IsRecordPath(p) == record && p != project.ChangelogFile && !strings.HasSuffix(p, "README.md") {
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		return ""
	}
	sort.Strings(ps)
	return ps[g.rng.IntN(len(ps))]
}

// step changes f as side's step n.
func (g *gen) step(f files, side string, n int) {
	switch op := g.rng.IntN(10); op {
	case 0: // a new record of any kind
		r := g.record(genKinds[g.rng.IntN(len(genKinds))], side, n)
		f[changelog.RecordPath(r)] = g.render(r)
	case 1: // a record the other side may add at the same path
		r := *g.pool[g.rng.IntN(len(g.pool))]
		r.Body = fmt.Sprintf("%s's version (%d)", side, g.rng.IntN(1000))
		r.Timestamp = g.stamp()
		f[changelog.RecordPath(&r)] = g.render(&r)
	case 2, 3: // a new version or a retraction of an existing record
		p := g.pick(f, true)
		if p == "" {
			return
		}
		old, err := changelog.Parse(p, f[p])
		if err != nil {
			g.t.Fatal(err)
		}
		var r *changelog.Record
		if op == 3 && !old.Tombstone {
			if r, err = changelog.NewTombstone(old, side+" retracts it"); err != nil {
				g.t.Fatal(err)
			}
			r.Agent, r.Timestamp, r.ID = side, g.stamp(), g.id()
		} else {
			r = g.record(old.Kind, side, n)
			if old.Kind != changelog.KindLog {
				r.Supersedes = old.ID
			}
		}
		f[changelog.RecordPath(r)] = g.render(r)
	case 4, 5: // a record edited in place, as only a hand edit does
		p := g.pick(f, true)
		if p == "" {
			return
		}
		r, err := changelog.Parse(p, f[p])
		if err != nil {
			g.t.Fatal(err)
		}
		r.Body = fmt.Sprintf("%s edited it at step %d (%d)", side, n, g.rng.IntN(1000))
		if g.rng.IntN(2) == 0 {
			r.Timestamp = g.stamp()
		}
		f[p] = g.render(r)
	case 6: // a record deleted by hand
		if p := g.pick(f, true); p != "" {
			delete(f, p)
		}
	case 7: // the branch context rewritten
		f[project.BranchContextPath("feature/x")] = g.branchContext(side, n)
	case 8: // the plan rewritten
		f[project.PlanFile] = []byte(fmt.Sprintf("%s's plan %d (%d)\n", side, n, g.rng.IntN(1000)))
	case 9: // a file that is no record deleted
		if p := g.pick(f, false); p != "" {
			delete(f, p)
		}
	}
}

// commit writes f as a commit with parents.
func (g *gen) commit(f files, parents ...staterepo.Hash) staterepo.Hash {
	g.t.Helper()
	tree, err := g.repo.TreeOf(parents[0])
	if err != nil {
		g.t.Fatal(err)
	}
	old := g.filesAt(parents[0])
	edits := map[string]staterepo.Hash{}
	for p := range old {
		if _, ok := f[p]; !ok {
			edits[p] = staterepo.ZeroHash
		}
	}
	for p, d := range f {
		if !bytes.Equal(old[p], d) {
			h, err := g.repo.WriteBlob(d)
			if err != nil {
				g.t.Fatal(err)
			}
			edits[p] = h
		}
	}
	if tree, err = g.repo.EditTree(tree, edits); err != nil {
		g.t.Fatal(err)
	}
	c, err := g.repo.WriteCommit(tree, parents, "step\n")
	if err != nil {
		g.t.Fatal(err)
	}
	g.seen[c] = f.clone()
	return c
}

// steps makes 1 to 3 commits of 1 to 6 steps each on top of tip.
func (g *gen) steps(f files, side string, tip staterepo.Hash) staterepo.Hash {
	for c := range 1 + g.rng.IntN(3) {
		for i := range 1 + g.rng.IntN(6) {
			g.step(f, side, c*10+i)
		}
		tip = g.commit(f, tip)
	}
	return tip
}

// mergeCase is one random pair of histories to merge.
type mergeCase struct {
	ours, theirs staterepo.Hash
	crissCross   bool
}

// build makes seed's histories: a base, two sides that diverge from it,
// and, for one seed in three, a criss-cross (each side merged the other's
// first commits, then went on), which leaves two merge bases.
func (g *gen) build(root staterepo.Hash, seed int) mergeCase {
	g.pool = nil
	for i := range 4 {
		g.pool = append(g.pool, g.record(genKinds[i%len(genKinds)], "pool", i))
	}
	base := g.filesAt(root).clone()
	for i := range 3 + g.rng.IntN(5) {
		g.step(base, "base", i)
	}
	baseCommit := g.commit(base, root)
	ours, theirs := base.clone(), base.clone()
	oursTip, theirsTip := g.steps(ours, "ours", baseCommit), g.steps(theirs, "theirs", baseCommit)
	mc := mergeCase{crissCross: seed%3 == 0}
	if mc.crissCross {
		a, _, err := mergeCommits(context.Background(), g.repo, oursTip, theirsTip, "cross", nil)
		if err != nil {
			g.t.Fatal(err)
		}
		b, _, err := mergeCommits(context.Background(), g.repo, theirsTip, oursTip, "cross", nil)
		if err != nil {
			g.t.Fatal(err)
		}
		merged := g.filesAt(a)
		ours, theirs = merged.clone(), merged.clone()
		oursTip, theirsTip = a, b
		for _, side := range []struct {
			f   files
			tip *staterepo.Hash
		}{{ours, &oursTip}, {theirs, &theirsTip}} {
			for i := range 1 + g.rng.IntN(4) {
				g.step(side.f, "after", 100+i)
			}
			*side.tip = g.commit(side.f, *side.tip)
		}
	}
	mc.ours, mc.theirs = oursTip, theirsTip
	return mc
}

// mergeBases are every best common ancestor of a and b, as git finds them.
func mergeBases(t *testing.T, repo *staterepo.Repo, a, b staterepo.Hash) []staterepo.Hash {
	var out []staterepo.Hash
	for _, h := range strings.Fields(testgit.Run(t, repo.Path, "merge-base", "--all", a.String(), b.String())) {
		out = append(out, staterepo.NewHash(h))
	}
	return out
}

// expectation is what a merge must make of one path, worked out from the
// merge policy, not from the resolver's code.
type expectation struct {
	want     []byte
	has      bool // false: the path must be absent
	conflict bool // both sides changed it, differently: merge reports it
}

func blobOf(d []byte) staterepo.Hash { return staterepo.Hash(blobHash(d)) }

// expect works out the result for path p from the tips and the merge base.
func expect(p string, ours, theirs, base []byte, hasO, hasT, hasB bool) expectation {
	record := changelog.IsRecordPath(p)
	unchanged := func(d []byte, ok bool) bool { return ok == hasB && bytes.Equal(d, base) }
	switch {
	case hasO && hasT && bytes.Equal(ours, theirs):
		return expectation{want: ours, has: true}
	case !hasO && !hasT:
		// Deleted on both sides: a record survives from its base.
		return expectation{want: base, has: record && hasB}
	case unchanged(ours, hasO):
		if !hasT { // deleted on theirs: a record is never deleted by absence
			return expectation{want: ours, has: record}
		}
		return expectation{want: theirs, has: true}
	case unchanged(theirs, hasT):
		if !hasO {
			return expectation{want: theirs, has: record}
		}
		return expectation{want: ours, has: true}
	case !hasO: // changed on theirs, deleted on ours
		return expectation{want: theirs, has: true}
	case !hasT:
		return expectation{want: ours, has: true}
	}
	return expectation{want: later(p, ours, theirs), has: true, conflict: true}
}

// later is the version the policy keeps: the later claimed time (a record's
// timestamp, a branch context's updated_at; a plain file claims none), and
// on a tie the version whose blob hash sorts last, so both sides agree.
func later(p string, a, b []byte) []byte {
	ta, tb := claimed(p, a), claimed(p, b)
	switch {
	case ta.After(tb):
		return a
	case tb.After(ta):
		return b
	case blobOf(a).String() > blobOf(b).String():
		return a
	}
	return b
}

func claimed(p string, d []byte) time.Time {
	if changelog.IsRecordPath(p) {
		r, err := changelog.Parse(p, d)
		if err != nil {
			return time.Time{}
		}
		return r.Timestamp
	}
	if c, err := branchctx.Parse(p, d); err == nil {
		return c.UpdatedAt
	}
	return time.Time{}
}

// TestMergeProperties merges random histories both ways and holds each
// merge to the policy: the same tree whichever side merges, no record lost,
// the later version kept on a conflict (ties broken by content, so both
// sides agree), a deletion kept only for files that are no records, and
// every conflict reported with the version kept and the one not. The
// generator reaches every rule: run with -merge.seeds=N for more.
func TestMergeProperties(t *testing.T) {
	seeds := *mergeSeeds
	if testing.Short() {
		seeds = min(seeds, 100)
	}
	var mu sync.Mutex
	var conflicted, crissCross, ties int
	reached := map[string]int{}
	// Seeds run in groups, each in a repository of its own, in parallel.
	const groups = 4
	t.Run("seeds", func(t *testing.T) {
		for group := range groups {
			t.Run(fmt.Sprint(group), func(t *testing.T) {
				t.Parallel()
				repo := testRepo(t)
				root, err := repo.Tip(project.GlobalBranch)
				if err != nil {
					t.Fatal(err)
				}
				for seed := 1 + group; seed <= seeds; seed += groups {
					r := mergeSeed(t, repo, root, seed)
					mu.Lock()
					if len(r.conflicts) > 0 {
						conflicted++
					}
					if r.bases > 1 {
						crissCross++
					}
					ties += r.ties
					for _, k := range r.conflicts {
						reached[k]++
					}
					mu.Unlock()
				}
			})
		}
	})
	t.Logf("%d seeds: %d with a conflict on both sides, %d criss-cross with several merge bases, %d tied conflicts; conflicts per kind %v",
		seeds, conflicted, crissCross, ties, reached)
	// The generator must keep reaching the hard cases, or the test proves less than it says.
	if conflicted*10 < seeds*3 {
		t.Errorf("only %d of %d seeds conflict on both sides, under 30%%", conflicted, seeds)
	}
	if crissCross == 0 || ties == 0 {
		t.Errorf("no criss-cross (%d) or no tied conflict (%d) was generated", crissCross, ties)
	}
	for _, k := range []string{"learning", "decision", "handoff", "log", "checkpoint", "branch context", "plain file"} {
		if reached[k] == 0 {
			t.Errorf("no conflict on a %s was generated", k)
		}
	}
}

// seedResult is what one seed's merge reached.
type seedResult struct {
	conflicts []string // the kind of each path both sides changed
	bases     int
	ties      int
}

// mergeSeed builds seed's histories, merges them both ways and holds the
// merges to the policy.
func mergeSeed(t *testing.T, repo *staterepo.Repo, root staterepo.Hash, seed int) seedResult {
	t.Helper()
	g := &gen{t: t, repo: repo, rng: rand.New(rand.NewPCG(uint64(seed), 0)), seen: map[staterepo.Hash]files{}}
	mc := g.build(root, seed)
	ab, choicesAB, err := mergeCommits(context.Background(), repo, mc.ours, mc.theirs, "test", nil)
	if err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	ba, choicesBA, err := mergeCommits(context.Background(), repo, mc.theirs, mc.ours, "test", nil)
	if err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	if ta, tb := mustTree(t, repo, ab), mustTree(t, repo, ba); ta != tb {
		t.Fatalf("seed %d: merging theirs into ours and ours into theirs give different trees (%s, %s)", seed, ta, tb)
	}
	o, th, m := g.filesAt(mc.ours), g.filesAt(mc.theirs), filesOf(t, repo, ab)
	for p, d := range m {
		if changelog.IsRecordPath(p) {
			if _, err := changelog.Parse(p, d); err != nil {
				t.Fatalf("seed %d: merge wrote an unparseable record: %v", seed, err)
			}
		}
	}
	// With several merge bases (criss-cross), the policy merges against
	// the one whose hash sorts first, whichever side merges.
	bases := mergeBases(t, repo, mc.ours, mc.theirs)
	first := bases[0]
	for _, b := range bases {
		if b.String() < first.String() {
			first = b
		}
	}
	want, mismatch := checkMerge(o, th, g.filesAt(first), m)
	if mismatch != "" {
		t.Fatalf("seed %d (%d merge bases): %s", seed, len(bases), mismatch)
	}
	for _, choices := range [][]Choice{choicesAB, choicesBA} {
		checkChoices(t, seed, choices, want, o, th)
	}
	res := seedResult{bases: len(bases)}
	for p := range want {
		if claimed(p, o[p]).Equal(claimed(p, th[p])) {
			res.ties++
		}
		res.conflicts = append(res.conflicts, kindOf(p))
	}
	return res
}

// checkMerge holds merged to the policy for the three-way merge of ours and
// theirs against base. It returns the conflicts both sides made, path to
// the version kept, or what is wrong.
func checkMerge(ours, theirs, base, merged files) (map[string][]byte, string) {
	paths := map[string]bool{}
	for _, f := range []files{ours, theirs, base, merged} {
		for p := range f {
			paths[p] = true
		}
	}
	conflicts := map[string][]byte{}
	for p := range paths {
		if p == project.ChangelogFile {
			continue // generated, regenerated after a merge, never merged
		}
		od, hasO := ours[p]
		td, hasT := theirs[p]
		bd, hasB := base[p]
		exp := expect(p, od, td, bd, hasO, hasT, hasB)
		got, has := merged[p]
		if has != exp.has || (has && !bytes.Equal(got, exp.want)) {
			return nil, fmt.Sprintf("%s merged to %q (present %v), want %q (present %v)\nours %q\ntheirs %q\nbase %q", p, got, has, exp.want, exp.has, od, td, bd)
		}
		if exp.conflict {
			conflicts[p] = exp.want
		}
	}
	return conflicts, ""
}

// checkChoices holds the conflicts merge reported to the ones the policy
// says both sides made.
func checkChoices(t *testing.T, seed int, choices []Choice, want map[string][]byte, ours, theirs files) {
	t.Helper()
	got := map[string]Choice{}
	for _, c := range choices {
		got[c.Path] = c
	}
	for p, kept := range want {
		c, ok := got[p]
		if !ok {
			t.Fatalf("seed %d: conflict on %s not reported (reported %d)", seed, p, len(choices))
		}
		other := ours[p]
		if bytes.Equal(other, kept) {
			other = theirs[p]
		}
		if c.Kept != blobOf(kept).String() || c.Other != blobOf(other).String() {
			t.Fatalf("seed %d: conflict on %s reported kept %s other %s, want kept %s other %s", seed, p, c.Kept, c.Other, blobOf(kept), blobOf(other))
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Fatalf("seed %d: %s reported as a conflict, but not both sides changed it", seed, p)
		}
	}
}

func kindOf(p string) string {
	switch {
	case changelog.IsRecordPath(p):
		return strings.TrimSuffix(strings.SplitN(p, "/", 2)[0], "s")
	case p == project.PlanFile:
		return "plain file"
	}
	return "branch context"
}

func mustTree(t *testing.T, repo *staterepo.Repo, c staterepo.Hash) staterepo.Hash {
	t.Helper()
	tree, err := repo.TreeOf(c)
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

func filesOf(t *testing.T, repo *staterepo.Repo, commit staterepo.Hash) files {
	t.Helper()
	fs, err := repo.Walk(commit, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := files{}
	for _, f := range fs {
		data, err := repo.ReadBlob(f.Blob)
		if err != nil {
			t.Fatal(err)
		}
		out[f.Path] = data
	}
	return out
}
