package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// benchMulch: planq import mulch of a 1,000-entry mulch directory, in
// mulch's own format (every record type, tags, evidence, files, outcomes,
// over 8 domains), into a fresh agent each run (issue 14: at most 2 s).
// The baseline is git add + commit of the same number of files.
func benchMulch(dir string) bool {
	const n = 1000
	src := filepath.Join(dir, "source", ".mulch")
	check(os.MkdirAll(filepath.Join(src, "expertise"), 0o755))
	check(os.WriteFile(filepath.Join(src, "mulch.config.yaml"), []byte("version: '1'\n"), 0o644))
	files := map[string]*strings.Builder{}
	types := []string{"convention", "pattern", "failure", "decision", "reference", "guide"}
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		domain := fmt.Sprintf("d%d", i%8)
		rec := map[string]any{"id": fmt.Sprintf("mx-%06x", i), "type": types[i%len(types)], "classification": "tactical",
			"recorded_at": start.Add(time.Duration(i) * time.Hour).Format("2006-01-02T15:04:05.000Z"),
			"evidence":    map[string]string{"commit": "0123456789abcdef0123456789abcdef01234567", "issue": fmt.Sprintf("#%d", i)},
			"tags":        []string{"bench", domain}}
		text := fmt.Sprintf("entry %d about the %s subsystem: keep the cache warm before the %d-th request", i, domain, i)
		switch types[i%len(types)] {
		case "convention":
			rec["content"] = text
		case "failure":
			rec["description"], rec["resolution"] = text, "restart it"
		case "decision":
			rec["title"], rec["rationale"] = fmt.Sprintf("decision %d", i), text
		default:
			rec["name"], rec["description"] = fmt.Sprintf("name %d", i), text
			rec["files"] = []string{fmt.Sprintf("src/%s/file%d.go", domain, i%20)}
			rec["outcomes"] = []map[string]any{{"status": "success", "agent": "bench"}}
		}
		line, err := json.Marshal(rec)
		check(err)
		if files[domain] == nil {
			files[domain] = &strings.Builder{}
		}
		files[domain].Write(append(line, '\n'))
	}
	for d, b := range files {
		check(os.WriteFile(filepath.Join(src, "expertise", d+".jsonl"), []byte(b.String()), 0o644))
	}
	var times, base []time.Duration
	for i := 0; i <= slowRuns(); i++ {
		agentDir := project(filepath.Join(dir, fmt.Sprint(i)), fmt.Sprintf("m%d", i), []string{"a"}, 0)[0]
		d := timed(agentDir, planqBin, "import", "mulch", src)
		if out := output(agentDir, nil, "git", "log", "-1", "--format=%s"); out != fmt.Sprintf("import: %d learnings from mulch", n) {
			fmt.Fprintf(os.Stderr, "import did not write %d learnings: %q\n", n, out)
			os.Exit(2)
		}
		plain := filepath.Join(agentDir, "plain")
		check(os.MkdirAll(plain, 0o755))
		for j := range n {
			check(os.WriteFile(filepath.Join(plain, fmt.Sprintf("%d.md", j)), []byte("plain\n"), 0o644))
		}
		b := timed(agentDir, "git", "add", "plain") + timed(agentDir, "git", "commit", "-q", "-m", "plain")
		if i == 0 {
			continue // the first run warms the disk cache
		}
		times, base = append(times, d), append(base, b)
	}
	fmt.Printf("mulch: planq import mulch of %d entries %s   git add+commit of %d files %s (target <= 2s)\n", n, ms(median(times)), n, ms(median(base)))
	return report(median(times) <= 2*time.Second)
}
