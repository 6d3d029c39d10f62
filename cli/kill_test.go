package cli

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/planq-dev/planq/internal/failpoint"
)

// killer kills a command at random moments drawn across its real duration,
// with its whole process group (git children included), and reports which
// phase, the last failpoint the command reached, each kill interrupted.
type killer struct {
	t      *testing.T
	m      *machine
	rng    *rand.Rand
	trace  string
	span   time.Duration // how long the command takes when nothing kills it
	kills  int
	locks  int // kills that left a lock of git's behind
	phases map[string]int
}

func newKiller(t *testing.T, m *machine, seed uint64) *killer {
	return &killer{t: t, m: m, rng: rand.New(rand.NewPCG(seed, 1)), trace: filepath.Join(t.TempDir(), "trace"), phases: map[string]int{}}
}

// round runs the command: in even rounds unkilled, to measure how long it
// takes now (the span kills are drawn over), in odd rounds killed.
func (k *killer) round(i int, dir string, args ...string) {
	k.t.Helper()
	if i%2 == 0 || k.span == 0 {
		start := time.Now()
		k.m.planq(dir, args...)
		k.span = time.Since(start)
		return
	}
	k.kill(dir, args...)
}

// kill starts the command and kills its group after a delay drawn from
// 1.5 spans, in turn from each fifth of them, so some runs finish first.
func (k *killer) kill(dir string, args ...string) {
	k.t.Helper()
	if err := os.WriteFile(k.trace, nil, 0o644); err != nil {
		k.t.Fatal(err)
	}
	cmd := k.m.command(dir, args, failpoint.TraceVar+"="+k.trace)
	leadOwnGroup(cmd)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		k.t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	// Stratified: the kills sweep the run from start to past its end.
	const strata = 5
	stratum := k.kills % strata
	k.kills++
	width := int64(k.span) * 3 / 2 / strata
	delay := time.Duration(int64(stratum)*width + k.rng.Int64N(width))
	var err error
	select {
	case err = <-done:
		k.phases["finished first"]++
		if err != nil {
			k.t.Fatalf("planq %s failed unkilled: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
		}
		return
	case <-time.After(delay):
		killGroup(cmd)
		err = <-done
	}
	// A git killed while it updated a ref leaves its lock file, and planq,
	// as git does, refuses to move that ref until someone removes it (the
	// error says so). Do what that error says: no git process is left.
	if locks := gitLocks(k.t, k.m.stateRepo()); len(locks) > 0 {
		k.locks++
		for _, l := range locks {
			if err := os.Remove(l); err != nil {
				k.t.Fatal(err)
			}
		}
	}
	data, _ := os.ReadFile(k.trace)
	reached := strings.Fields(string(data))
	switch {
	case err == nil:
		k.phases["finished first"]++
	case len(reached) == 0:
		k.phases["killed before any point"]++
	default:
		k.phases["killed after "+reached[len(reached)-1]]++
	}
}

// varied says whether the kills hit more than one phase yet.
func (k *killer) varied() bool { return len(k.phases) > 1 }

// report logs the phases the kills hit and fails the test when they all
// hit one: the kills then prove nothing about the other steps.
func (k *killer) report(what string) {
	k.t.Helper()
	var lines []string
	for phase, n := range k.phases {
		lines = append(lines, fmt.Sprintf("%3d %s", n, phase))
	}
	sort.Strings(lines)
	k.t.Logf("%s (last span %v), what each kill hit:\n%s\n%3d left a lock of git's behind (removed, as the error says to)", what, k.span.Round(time.Millisecond), strings.Join(lines, "\n"), k.locks)
	if len(k.phases) < 2 {
		k.t.Errorf("every kill of %s landed in the same phase: %v", what, k.phases)
	}
}

// TestRandomKills kills promote and pull at random moments, process group
// and all: after every kill git finds the repository sound and global is
// either as before or one whole merge further; the next run then brings
// everything in.
func TestRandomKills(t *testing.T) {
	if testing.Short() {
		t.Skip("kills processes for a while")
	}
	// Parallel, as the other long tests: most of their time is spent
	// waiting for planq and git processes, not on a core.
	t.Parallel()
	t.Run("promote", func(t *testing.T) {
		t.Parallel()
		m := teamMachine(t, t.TempDir())
		k := newKiller(t, m, 1)
		learnings := 0
		learn := func() {
			for range 3 {
				learnings++
				m.learn(m.app, "a", fmt.Sprintf("learning %d", learnings))
			}
		}
		for round := 0; round < 30 || !k.varied() && round < 60; round++ {
			learn()
			before := m.git(m.stateRepo(), "rev-parse", "global")
			k.round(round, m.app, "context", "promote", "--agent", "a", "--all")
			checkOneStep(t, m, before, round)
		}
		k.report("promote")
		m.planq(m.app, "context", "promote", "--agent", "a", "--all")
		if n := m.count(m.stateRepo(), "global", "learnings"); n != learnings {
			t.Errorf("global holds %d learnings after the last promote, want all %d", n, learnings)
		}
	})
	t.Run("pull", func(t *testing.T) {
		t.Parallel()
		root := t.TempDir()
		two := diverged(t, root)
		one := &machine{t: t, home: filepath.Join(root, "one"), app: filepath.Join(root, "one", "app"), env: swapHome(two.env, two.home, filepath.Join(root, "one"))}
		k := newKiller(t, two, 2)
		want := 3
		for round := 0; round < 20 || !k.varied() && round < 40; round++ {
			// Both sides move on, so each pull has a merge to make.
			one.learn(one.app, "a", fmt.Sprintf("from one, round %d", round))
			one.planq(one.app, "context", "promote", "--agent", "a", "--all")
			one.planq(one.app, "state", "push")
			two.learn(two.app, "b", fmt.Sprintf("from two, round %d", round))
			two.planq(two.app, "context", "promote", "--agent", "b", "--all")
			want += 2
			before := two.git(two.stateRepo(), "rev-parse", "global")
			k.round(round, two.app, "state", "pull")
			checkOneStep(t, two, before, round)
		}
		k.report("pull")
		two.planq(two.app, "state", "pull")
		if n := two.count(two.stateRepo(), "global", "learnings"); n != want {
			t.Errorf("global holds %d learnings after the last pull, want all %d", n, want)
		}
	})
}

// checkOneStep fails the test unless m's state repository is sound and its
// global is before or a merge whose first parent is before.
func checkOneStep(t *testing.T, m *machine, before string, round int) {
	t.Helper()
	m.fsck(m.stateRepo())
	after := m.git(m.stateRepo(), "rev-parse", "global")
	if after == before || m.git(m.stateRepo(), "rev-parse", "global^1") == before {
		return
	}
	// One merge further, and the knowledge base's update of it on top.
	if strings.Contains(m.git(m.stateRepo(), "log", "-1", "--format=%B", "global"), "Planq-Knowledge: update") &&
		m.git(m.stateRepo(), "rev-parse", "global~1^1") == before {
		return
	}
	t.Errorf("round %d: global is neither as before nor one merge further (and its knowledge base update)", round)
}

// swapHome is env with every path under from moved under to.
func swapHome(env []string, from, to string) []string {
	out := make([]string, len(env))
	for i, kv := range env {
		out[i] = strings.ReplaceAll(kv, from, to)
	}
	return out
}

// gitLocks are the lock files git left in the bare repository repo (not
// planq's own flocks, which a dead process releases).
func gitLocks(t *testing.T, repo string) []string {
	t.Helper()
	var locks []string
	err := filepath.WalkDir(repo, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "objects" || p == filepath.Join(repo, "planq")) {
			return filepath.SkipDir // planq's own flocks; refs/planq holds git's
		}
		if !d.IsDir() && strings.HasSuffix(p, ".lock") {
			locks = append(locks, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return locks
}
