package cli

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/planq-dev/planq/internal/testkit/testgit"
)

// TestTwoMachinesRace has two machines pull and push one remote at the same
// moments, with a third machine moving the remote in between, so that both
// pulls merge at once and the pushes contend. Each round asserts that both
// pulls merged and that a push lost the race and merged before it pushed
// again. In the end all three machines and the remote hold the same global
// with every record, and git finds every repository sound.
func TestTwoMachinesRace(t *testing.T) {
	if testing.Short() {
		t.Skip("runs concurrent rounds")
	}
	t.Parallel()
	root := t.TempDir()
	one := teamMachine(t, root)
	one.planq(one.app, "state", "push")
	machines := []*machine{one}
	for i, name := range []string{"two", "three"} {
		m := newMachine(t, root, name, one.app)
		m.planq(m.app, "init")
		m.planq(m.app, "create", fmt.Sprintf("w%d", i+2))
		machines = append(machines, m)
	}
	agents := []string{"a", "w2", "w3"}
	racers, third := machines[:2], machines[2]
	const rounds = 6
	records := 0
	both := func(fn func(i int, m *machine) string) []string {
		out := make([]string, len(racers))
		var wg sync.WaitGroup
		for i, m := range racers {
			wg.Go(func() { out[i] = fn(i, m) })
		}
		wg.Wait()
		return out
	}
	var contended int
	for round := range rounds {
		both(func(i int, m *machine) string {
			m.learn(m.app, agents[i], fmt.Sprintf("machine %d, round %d", i+1, round))
			m.planq(m.app, "context", "promote", "--agent", agents[i], "--all")
			return ""
		})
		third.learn(third.app, agents[2], fmt.Sprintf("third machine, round %d", round))
		third.planq(third.app, "context", "promote", "--agent", agents[2], "--all")
		third.planq(third.app, "state", "push")
		records += 3

		pulls := both(func(_ int, m *machine) string { return m.planq(m.app, "state", "pull", "--json") })
		for i, out := range pulls {
			var res struct{ Outcome string }
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatalf("round %d: pull --json: %v\n%s", round, err, out)
			}
			if res.Outcome != "merged" {
				t.Errorf("round %d: machine %d's pull was %q, want a merge: both had work the remote lacked, and the remote work they lacked", round, i+1, res.Outcome)
			}
		}
		pushes := both(func(_ int, m *machine) string { return m.planq(m.app, "state", "push", "--json") })
		lost := 0
		for _, out := range pushes {
			var res struct{ Pulls int }
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatalf("round %d: push --json: %v\n%s", round, err, out)
			}
			lost += res.Pulls
		}
		if lost == 0 {
			t.Errorf("round %d: neither push lost the race, though both leased the same remote global", round)
		}
		contended += lost
	}
	t.Logf("%d rounds: every pull merged, %d pushes lost the race and merged before pushing again", rounds, contended)

	// Settle: everyone pulls what the last push left.
	for _, m := range machines {
		m.planq(m.app, "state", "pull")
	}
	remote := remoteOf(one)
	want := one.git(remote, "rev-parse", "refs/planq/global")
	for i, m := range machines {
		if got := m.git(m.stateRepo(), "rev-parse", "global"); got != want {
			t.Errorf("machine %d has global %s, the remote %s", i+1, got, want)
		}
		m.fsck(m.stateRepo())
	}
	one.fsck(remote)
	if n := one.count(remote, "refs/planq/global", "learnings"); n != records {
		t.Errorf("the remote's global holds %d learnings, want all %d", n, records)
	}
	if out, found := testgit.Exit(t, one.env, remote, "grep", "-l", "-e", "^<<<<<<<", "-e", "^>>>>>>>", "refs/planq/global"); found != 1 {
		t.Errorf("conflict markers in the remote's global:\n%s", out)
	}
}
