package readmodel

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/internal/testkit/testrecords"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// team is a state repository a team writes at random, step by step, as
// planq's writers write it: agents log and learn on their branches, edit
// (now and then into another domain) and retract, a lead promotes their
// learnings onto global (marking some copies disputed), archives and
// restores; an agent's entries reach another's branch; uses are counted;
// and, where hand asks for it, what only a hand-made commit writes: a
// ring of versions, copies of a record that disagree. The learnings cite
// files of a code checkout, some changed or gone since.
type team struct {
	t      *testing.T
	rng    *rand.Rand
	repo   *staterepo.Repo
	clock  time.Time
	agents []string
	hand   bool
	// held is what each branch holds, by ID.
	held map[string]map[string]*changelog.Record
	code string
	// blobs are the code files' blobs: at HEAD, and older ones.
	blobs map[string]string
	old   string
}

var teamDomains = []string{"db", "api", "ci", "ui"}

func newTeam(t *testing.T, seed uint64, hand bool) *team {
	t.Helper()
	tm := &team{t: t, rng: rand.New(rand.NewPCG(seed, 38)), repo: testrecords.RepoWith(t, testrecords.Rendered(t, nil)),
		clock: time.Date(2026, 1, 28, 9, 0, 0, 0, time.UTC), agents: []string{"a0", "a1", "a2"}, hand: hand,
		held: map[string]map[string]*changelog.Record{project.GlobalBranch: {}}, blobs: map[string]string{}}
	tm.code = t.TempDir()
	testgit.Run(t, tm.code, "init", "-q")
	for _, f := range []string{"a.go", "b.go", "gone.go"} {
		if err := os.WriteFile(filepath.Join(tm.code, f), []byte("package a // "+f+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	testgit.Run(t, tm.code, "add", ".")
	testgit.Run(t, tm.code, "commit", "-q", "-m", "one")
	tm.old = strings.TrimSpace(testgit.Run(t, tm.code, "rev-parse", "HEAD:b.go"))
	if err := os.WriteFile(filepath.Join(tm.code, "b.go"), []byte("package a // b, changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	testgit.Run(t, tm.code, "rm", "-q", "gone.go")
	testgit.Run(t, tm.code, "commit", "-q", "-am", "two")
	tm.blobs["a.go"] = strings.TrimSpace(testgit.Run(t, tm.code, "rev-parse", "HEAD:a.go"))
	tm.blobs["b.go"] = strings.TrimSpace(testgit.Run(t, tm.code, "rev-parse", "HEAD:b.go"))
	for _, a := range tm.agents {
		r, err := changelog.NewLog(changelog.LogInput{Text: "mounted"})
		tm.write(project.AgentBranch(a), []*changelog.Record{tm.stamped(r, err, a)}, nil)
	}
	return tm
}

// write commits recs (and files) onto branch, made from global's tip when
// it is new.
func (tm *team) write(branch string, recs []*changelog.Record, files map[string][]byte) {
	tm.t.Helper()
	if files == nil {
		files = map[string][]byte{}
	}
	for _, r := range recs {
		data, err := changelog.Render(r)
		if err != nil {
			tm.t.Fatal(err)
		}
		files[changelog.RecordPath(r)] = data
	}
	ctx := context.Background()
	tip, err := tm.repo.Tip(branch)
	if err != nil {
		if _, err := tm.repo.CreateBranch(ctx, branch, project.GlobalBranch, files, "new"); err != nil {
			tm.t.Fatal(err)
		}
		tm.held[branch] = maps.Clone(tm.held[project.GlobalBranch])
	} else {
		c, err := tm.repo.Commit(tip)
		if err != nil {
			tm.t.Fatal(err)
		}
		blobs := map[string]staterepo.Hash{}
		for p, data := range files {
			if blobs[p], err = tm.repo.WriteBlob(data); err != nil {
				tm.t.Fatal(err)
			}
		}
		tree, err := tm.repo.EditTree(c.Tree, blobs)
		if err != nil {
			tm.t.Fatal(err)
		}
		commit, err := tm.repo.WriteCommit(tree, []staterepo.Hash{tip}, "step")
		if err != nil {
			tm.t.Fatal(err)
		}
		if err := tm.repo.MoveBranch(ctx, branch, commit, tip, "step"); err != nil {
			tm.t.Fatal(err)
		}
	}
	for _, r := range recs {
		tm.held[branch][r.ID] = r
	}
}

// stamped is r written by agent now, under a new ID.
func (tm *team) stamped(r *changelog.Record, err error, agent string) *changelog.Record {
	tm.t.Helper()
	return testrecords.Stamped(tm.t, r, err, agent, tm.clock)
}

// pick is a record branch holds of kind, at random; nil for none.
func (tm *team) pick(branch string, kind changelog.Kind, tomb bool) *changelog.Record {
	var of []*changelog.Record
	for _, r := range tm.held[branch] {
		if r.Kind == kind && r.Tombstone == tomb {
			of = append(of, r)
		}
	}
	if len(of) == 0 {
		return nil
	}
	slices.SortFunc(of, func(a, b *changelog.Record) int { return strings.Compare(a.ID, b.ID) })
	return of[tm.rng.IntN(len(of))]
}

// step writes one thing a team writes, an hour to three days after the
// last.
func (tm *team) step() {
	tm.clock = tm.clock.Add(time.Duration(tm.rng.IntN(72))*time.Hour + time.Duration(tm.rng.IntN(3600))*time.Second)
	agent := tm.agents[tm.rng.IntN(len(tm.agents))]
	branch := project.AgentBranch(agent)
	switch n := tm.rng.IntN(15); {
	case n < 4:
		r, err := changelog.NewLog(changelog.LogInput{Text: fmt.Sprintf("step at %s", tm.clock)})
		tm.write(branch, []*changelog.Record{tm.stamped(r, err, agent)}, nil)
	case n < 7:
		tm.write(branch, []*changelog.Record{tm.learning(agent)}, nil)
	case n == 7:
		tm.edit(agent)
	case n == 8:
		tm.retract(agent)
	case n == 9:
		tm.promote(agent)
	case n == 10:
		tm.archiveOrRestore()
	case n == 11:
		tm.use(agent)
	case n == 12:
		tm.share(agent)
	case n == 13:
		tm.junk(branch)
	default:
		tm.byHand(agent)
	}
}

func (tm *team) learning(agent string) *changelog.Record {
	types := []changelog.Type{changelog.TypePattern, changelog.TypeConvention, changelog.TypeFailure}
	r, err := changelog.NewLearning(changelog.LearningInput{Text: fmt.Sprintf("learning at %s", tm.clock),
		Type: types[tm.rng.IntN(len(types))], Domain: teamDomains[tm.rng.IntN(len(teamDomains))],
		Classification: changelog.Classifications[tm.rng.IntN(len(changelog.Classifications))], Resolution: "r"})
	r = tm.stamped(r, err, agent)
	if tm.rng.IntN(3) == 0 {
		r.Status = changelog.StatusDisputed
	}
	switch tm.rng.IntN(5) {
	case 0:
		r.Anchors = []changelog.Anchor{{Path: "a.go", Blob: tm.blobs["a.go"]}}
	case 1:
		r.Anchors = []changelog.Anchor{{Path: "b.go", Blob: tm.old}, {Path: "a.go"}}
	case 2:
		r.Anchors = []changelog.Anchor{{Path: "gone.go", Blob: tm.old}}
	}
	return r
}

// edit writes a new version of one of the agent's learnings, now and then
// in another domain.
func (tm *team) edit(agent string) {
	old := tm.pick(project.AgentBranch(agent), changelog.KindLearning, false)
	if old == nil {
		return
	}
	next := *old
	next.Body, next.Supersedes = old.Body+", edited", old.ID
	if tm.rng.IntN(3) == 0 {
		next.Domain = teamDomains[tm.rng.IntN(len(teamDomains))]
	}
	next.Agent, next.Timestamp = agent, tm.clock
	next.ID = changelog.NewID(agent, next.Kind, next.Body, next.Timestamp)
	tm.write(project.AgentBranch(agent), []*changelog.Record{&next}, nil)
}

// retract retracts one of the agent's learnings or entries.
func (tm *team) retract(agent string) {
	kind := changelog.KindLog
	if tm.rng.IntN(2) == 0 {
		kind = changelog.KindLearning
	}
	target := tm.pick(project.AgentBranch(agent), kind, false)
	if target == nil {
		return
	}
	tomb, err := changelog.NewTombstone(target, "wrong")
	tm.write(project.AgentBranch(agent), []*changelog.Record{tm.stamped(tomb, err, agent)}, nil)
}

// promote lands the agent's learnings global lacks onto global, some of
// them marked disputed there.
func (tm *team) promote(agent string) {
	var land []*changelog.Record
	for _, r := range tm.held[project.AgentBranch(agent)] {
		if r.Kind != changelog.KindLearning || tm.held[project.GlobalBranch][r.ID] != nil {
			continue
		}
		cp := *r
		if tm.rng.IntN(4) == 0 {
			cp.Status = changelog.StatusDisputed
		}
		land = append(land, &cp)
	}
	slices.SortFunc(land, func(a, b *changelog.Record) int { return strings.Compare(a.ID, b.ID) })
	if len(land) > 0 {
		tm.write(project.GlobalBranch, land, nil)
	}
}

// archiveOrRestore archives a learning on global, or restores an archived
// one as a new version superseding its archiving.
func (tm *team) archiveOrRestore() {
	if marker := tm.pick(project.GlobalBranch, changelog.KindLearning, true); marker != nil && marker.Archived && tm.rng.IntN(2) == 0 {
		orig := tm.held[project.GlobalBranch][marker.Supersedes]
		if orig == nil {
			return
		}
		next := *orig
		next.Supersedes, next.Body, next.Agent, next.Timestamp = marker.ID, orig.Body+", restored", "lead", tm.clock
		next.ID = changelog.NewID(next.Agent, next.Kind, next.Body, next.Timestamp)
		tm.write(project.GlobalBranch, []*changelog.Record{&next}, nil)
		return
	}
	target := tm.pick(project.GlobalBranch, changelog.KindLearning, false)
	if target == nil {
		return
	}
	m, err := changelog.NewTombstone(target, "past its shelf life")
	m = tm.stamped(m, err, "lead")
	m.Archived = true
	tm.write(project.GlobalBranch, []*changelog.Record{m}, nil)
}

// use counts uses of some records the agent's branch holds.
func (tm *team) use(agent string) {
	uses := map[string]Use{}
	for _, r := range tm.held[project.AgentBranch(agent)] {
		if tm.rng.IntN(3) == 0 {
			uses[r.ID] = Use{Count: 1, Last: tm.clock.Add(-time.Duration(tm.rng.IntN(40*24)) * time.Hour).Truncate(time.Second)}
		}
	}
	tm.write(project.AgentBranch(agent), nil, map[string][]byte{project.UsesDir + "/" + agent + ".tsv": FormatUses(uses)})
}

// share copies some of the agent's records onto another agent's branch.
func (tm *team) share(agent string) {
	to := tm.agents[tm.rng.IntN(len(tm.agents))]
	if to == agent {
		return
	}
	var recs []*changelog.Record
	for _, r := range tm.held[project.AgentBranch(agent)] {
		if tm.rng.IntN(4) == 0 {
			recs = append(recs, r)
		}
	}
	slices.SortFunc(recs, func(a, b *changelog.Record) int { return strings.Compare(a.ID, b.ID) })
	tm.write(project.AgentBranch(to), recs, nil)
}

// junk writes a file that is no readable record where records live, or
// one beside them: the problems status and log report.
func (tm *team) junk(branch string) {
	n := tm.rng.IntN(1000)
	p := []string{fmt.Sprintf("learnings/%s/pq-%08d.md", append(teamDomains, "void")[n%(len(teamDomains)+1)], n),
		fmt.Sprintf("log/%s/pq-%08d.md", tm.clock.Format("2006-01"), n), fmt.Sprintf("learnings/stray-%d.md", n)}[n%3]
	tm.write(branch, nil, map[string][]byte{p: []byte("no frontmatter here\n")})
}

// byHand writes, when the team has hands, what only a hand-made commit
// does: two versions that supersede each other, or a copy of a record that
// says it supersedes another than the record does.
func (tm *team) byHand(agent string) {
	if !tm.hand {
		return
	}
	branch := project.AgentBranch(agent)
	if tm.rng.IntN(2) == 0 {
		a, b := tm.learning(agent), tm.learning(agent)
		b.Domain = a.Domain
		b.ID = changelog.NewID(agent, b.Kind, b.Body+"b", b.Timestamp)
		a.Supersedes, b.Supersedes = b.ID, a.ID
		tm.write(branch, []*changelog.Record{a, b}, nil)
		return
	}
	r := tm.pick(branch, changelog.KindLog, false)
	other := tm.pick(branch, changelog.KindLog, false)
	if r == nil || other == nil || r == other {
		return
	}
	cp := *r
	cp.Supersedes = other.ID
	tm.write(project.AgentBranch(tm.agents[(slices.Index(tm.agents, agent)+1)%len(tm.agents)]), []*changelog.Record{&cp}, nil)
}

// check holds status and log, from the tallies, to the walks over every
// record, as of a moment about now.
func (tm *team) check(rd *Reader, step int) {
	tm.t.Helper()
	ctx := context.Background()
	now := tm.clock.Add(time.Duration(tm.rng.IntN(20*24)-10*24) * time.Hour)
	custom := ShelfLivesOf(project.ShelfLife{Tactical: project.LifeSpan{Text: "3d", Span: 3 * 24 * time.Hour},
		Observational: project.LifeSpan{Text: "never", Never: true}})
	for _, life := range []ShelfLives{ShelfLife, custom} {
		for _, code := range []string{"", tm.code} {
			got, gotProblems, err := rd.Status(ctx, now, life, code)
			if err != nil {
				tm.t.Fatal(err)
			}
			want, wantProblems, err := rd.statusWalk(ctx, now, life, code)
			if err != nil {
				tm.t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotProblems, wantProblems) {
				tm.t.Fatalf("step %d, status as of %s (code %q):\n got  %+v %q\n want %+v %q", step, now, code, got, gotProblems, want, wantProblems)
			}
		}
	}
	midway := tm.clock.Add(-time.Duration(tm.rng.IntN(60*24)) * time.Hour)
	for _, opts := range []LogOptions{{All: true}, {All: true, Limit: 5}, {All: true, Limit: 1 + tm.rng.IntN(30), Since: midway},
		{Agent: "a0"}, {Agent: "a1", Limit: 3}, {Agent: "a2", Since: midway}, {All: true, Since: tm.clock.Add(time.Hour)}} {
		got, err := rd.Log(opts)
		if err != nil {
			tm.t.Fatal(err)
		}
		want, err := rd.logWalk(opts)
		if err != nil {
			tm.t.Fatal(err)
		}
		if !slices.Equal(ids(got.Entries), ids(want.Entries)) || !reflect.DeepEqual(got.Agents, want.Agents) ||
			!reflect.DeepEqual(got.Problems, want.Problems) {
			tm.t.Fatalf("step %d, log %+v:\n got  %v %+v %q\n want %v %+v %q", step, opts,
				ids(got.Entries), got.Agents, got.Problems, ids(want.Entries), want.Agents, want.Problems)
		}
	}
}

// Status and log answer from the read model's tallies as the walks over
// every record answer, whatever a team wrote, read warm after each write
// (each tally made again only for the shard written) and from nothing; and
// they answer from the tallies unless a hand-made ring or copies that
// disagree leave it to the walk.
func TestTalliesAnswerAsTheWalks(t *testing.T) {
	for seed := range uint64(6) {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			hand := seed >= 4
			tm := newTeam(t, seed, hand)
			cacheDir := t.TempDir()
			for step := range 70 {
				tm.step()
				if step%5 != 4 {
					continue
				}
				warm := Open(tm.repo, cacheDir)
				tm.check(warm, step)
				if !hand && warm.e.TallyWalks() > 0 {
					t.Fatalf("step %d: the tallies left %d reads to the walk", step, warm.e.TallyWalks())
				}
			}
			tm.check(Open(tm.repo, t.TempDir()), 70)
		})
	}
}

// logWalk is Log by a walk over every entry, which Log answers alike.
func (rd *Reader) logWalk(opts LogOptions) (*LogView, error) { return rd.log(opts, rd.e.EntriesWalk) }
