package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// benchAnchors: what checking anchors adds to prime at 50,000 records
// (issue 14: at most 10 ms). Two projects seeded alike (8 agents, 50,000
// records, every agent promoted); in each, agent a0 records 20
// foundational learnings, which prime shows first: in one with --file (an
// anchor each, and the code file changed since, so each is marked stale),
// in the other without. The difference of prime's medians is the check.
func benchAnchors(dir string) bool {
	const n = 50000
	agents := []string{"a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7"}
	primes := map[bool]time.Duration{}
	for _, anchored := range []bool{false, true} {
		name := map[bool]string{false: "plain", true: "anchored"}[anchored]
		dirs := project(filepath.Join(dir, name), name, agents, n/len(agents))
		repo := filepath.Join(dir, name, "code")
		for _, a := range agents {
			run(repo, planqBin, "context", "promote", "--agent", a, "--all")
		}
		workspace := filepath.Dir(filepath.Dir(dirs[0]))
		for i := range 20 {
			args := []string{"learn", fmt.Sprintf("Anchored rule %d: the bench README describes the setup", i), "--type", "convention",
				"--domain", "bench", "--classification", "foundational"}
			if anchored {
				args = append(args, "--file", "README.md:1-1")
			}
			run(workspace, planqBin, args...)
		}
		run(workspace, planqBin, "context", "promote", "--all")
		if anchored {
			run(workspace, "sh", "-c", "echo changed >> README.md && git commit -q -am 'readme changed'")
		}
		c, out := measureScale(workspace, "", *runs, "prime")
		if marked := strings.Count(out, "may be stale: README.md changed"); anchored && marked == 0 {
			fmt.Printf("anchors: prime marked no anchored learning stale:\n%s\n", out)
			return report(false)
		}
		primes[anchored] = c.median
		fmt.Printf("anchors: prime at %s records, 20 shown learnings %s: %s\n", commas(n), map[bool]string{false: "without anchors", true: "anchored, stale"}[anchored], c)
	}
	added := primes[true] - primes[false]
	fmt.Printf("anchors: the check adds %s to prime (target <= 10ms)\n", ms(added))
	return report(added <= 10*time.Millisecond)
}
