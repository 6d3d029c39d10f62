package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// benchAllProjects: planq search --all-projects over 10 projects of 10,000
// records each and a user layer of 1,000, whole process, with every read
// model warm (issue 30: median at most 150 ms).
func benchAllProjects(dir string) bool {
	var from string
	for i := range 10 {
		name := fmt.Sprintf("ap%d", i)
		dirs := project(filepath.Join(dir, name), name, []string{"a"}, 10000)
		if i == 0 {
			from = dirs[0]
		}
	}
	// The user layer: a global of learnings, as planq keeps it.
	ul := project(filepath.Join(dir, "ul"), "ul", []string{"old"}, 0)
	seedMix(ul[0], "old", 1000, mixLearnings)
	run(filepath.Join(dir, "ul", "code"), planqBin, "context", "promote", "--agent", "old", "--all")
	user := filepath.Join(homeOf(), "state-repos", "_user.git")
	run(dir, "git", "init", "-q", "--bare", user)
	run(dir, "git", "--git-dir="+filepath.Join(homeOf(), "state-repos", "ul.git"), "push", "-q", user, "global")
	check(os.RemoveAll(filepath.Join(homeOf(), "state-repos", "ul.git")))
	check(os.RemoveAll(filepath.Join(homeOf(), "cache", "ul")))

	args := []string{"search", "flaky test retries", "ci cache", "--all-projects", "--limit", "10"}
	start := time.Now()
	_, out := timedOut(from, "", planqBin, "search", "flaky test retries", "ci cache", "--all-projects", "--limit", "20", "--json") // the first run fills every read model
	cold := time.Since(start)
	// Every repository answered: none skipped, each among the 20 best
	// (ranks interleave).
	var found struct {
		Hits []struct {
			Project string `json:"project"`
		} `json:"hits"`
		Skipped []any `json:"skipped"`
	}
	check(json.Unmarshal([]byte(out), &found))
	projects := map[string]bool{}
	for _, h := range found.Hits {
		projects[h.Project] = true
	}
	if len(found.Skipped) > 0 || len(projects) < 11 || !projects["_user"] {
		fmt.Fprintf(os.Stderr, "search --all-projects did not search every repository:\n%s\n", out)
		os.Exit(2)
	}
	var times []time.Duration
	var peak int64
	for i := 0; i < *runs; i++ {
		d, rss := timedRSS(from, planqBin, args...)
		times = append(times, d)
		peak = max(peak, rss)
	}
	m := median(times)
	fmt.Printf("search --all-projects, 10 projects x 10,000 records + user layer, warm: median %s, peak RSS %.0f MiB (target <= 150ms); first run %s\n",
		ms(m), float64(peak)/1024, ms(cold))
	return report(m <= 150*time.Millisecond)
}
