package main

import (
	"fmt"
	"path/filepath"
	"time"
)

// benchLifecycle: planq validate (at most 2 s), planq status (at most
// 100 ms) and the dry runs of prune and dedupe (at most 1 s each) at 50,000
// records (issue 14), in a project seeded as the scale
// measurement seeds one: 8 agents, every one promoted into global, so that
// each reads global and every agent branch. Each is run once to fill the
// caches, then timed as a whole process.
func benchLifecycle(dir string) bool {
	const n = 50000
	agents := []string{"a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7"}
	start := time.Now()
	project(dir, "life", agents, n/len(agents))
	repo := filepath.Join(dir, "code")
	for _, a := range agents {
		run(repo, planqBin, "context", "promote", "--agent", a, "--all")
	}
	fmt.Printf("lifecycle: %s records in %d agents seeded and promoted in %s\n", commas(n), len(agents), time.Since(start).Round(time.Second))
	ok := true
	for _, m := range []struct {
		args   []string
		target time.Duration
	}{
		{[]string{"validate"}, 2 * time.Second},
		{[]string{"status"}, 100 * time.Millisecond},
		{[]string{"prune", "--dry-run"}, time.Second},
		{[]string{"dedupe", "--dry-run"}, time.Second},
	} {
		c, _ := measureScale(repo, "", slowRuns(), m.args...)
		fmt.Printf("lifecycle: planq %-9s at %s records: %s (target <= %s)\n", m.args[0], commas(n), c, ms(m.target))
		ok = report(c.median <= m.target) && ok
	}
	return ok
}
