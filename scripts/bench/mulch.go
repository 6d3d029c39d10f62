package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// benchMulch: planq import mulch of a 1,000-record mulch directory, in
// mulch's own format and with the shapes real projects' .mulch holds (every
// record type, tags, evidence, files, outcomes, over 8 domains; failures
// without resolution and patterns without name, as automated recorders
// write them, so that an id repeats; custom types with fields of their own;
// records of mulch's archive), into a fresh agent each run (issues 14 and
// 27: at most 2 s). The baseline is git add + commit of the same number of
// files.
//
//	go run ./scripts/bench -only mulch
func benchMulch(dir string) bool {
	const n = 1000
	src := filepath.Join(dir, "source", ".mulch")
	check(os.MkdirAll(filepath.Join(src, "expertise"), 0o755))
	check(os.MkdirAll(filepath.Join(src, "archive"), 0o755))
	check(os.WriteFile(filepath.Join(src, "mulch.config.yaml"), []byte(`version: '1'
custom_types:
  release_decision:
    extends: decision
    required: [version]
    optional: [breaking]
    summary: '{title} (v{version})'
  flake_symptom:
    extends: failure
    required: [test_path]
    optional: [flake_rate]
    summary: '{test_path}'
`), 0o644))
	files := map[string]*strings.Builder{}
	types := []string{"convention", "pattern", "failure", "decision", "reference", "guide"}
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	archived := 0
	for i := range n {
		domain := fmt.Sprintf("d%d", i%8)
		typ := types[i%len(types)]
		rec := map[string]any{"id": fmt.Sprintf("mx-%06x", i), "type": typ, "classification": "tactical",
			"recorded_at": start.Add(time.Duration(i) * time.Hour).Format("2006-01-02T15:04:05.000Z"),
			"evidence":    map[string]string{"commit": "0123456789abcdef0123456789abcdef01234567", "issue": fmt.Sprintf("#%d", i)},
			"tags":        []string{"bench", domain}}
		text := fmt.Sprintf("entry %d about the %s subsystem: keep the cache warm before the %d-th request", i, domain, i)
		switch {
		case i%50 == 7:
			rec["type"], rec["title"], rec["rationale"], rec["version"] = "release_decision", fmt.Sprintf("release %d", i), text, fmt.Sprintf("1.%d.0", i)
		case i%50 == 8:
			rec["type"], rec["description"], rec["resolution"], rec["test_path"] = "flake_symptom", text, "re-run it alone", fmt.Sprintf("test/%d_test.go", i)
		case typ == "convention":
			rec["content"] = text
		case typ == "failure":
			rec["description"], rec["resolution"] = text, "restart it"
			if i%4 == 0 { // as an automated recorder writes it
				rec["resolution"] = ""
			}
		case typ == "decision":
			rec["title"], rec["rationale"] = fmt.Sprintf("decision %d", i), text
		default:
			rec["name"], rec["description"] = fmt.Sprintf("name %d", i), text
			if typ != "guide" { // mulch's guides have no files
				rec["files"] = []string{fmt.Sprintf("src/%s/file%d.go", domain, i%20)}
			}
			rec["outcomes"] = []map[string]any{{"status": "success", "agent": "bench"}}
			if typ == "pattern" && i%4 == 1 { // no name: mulch's id of every such pattern
				rec["name"], rec["id"] = "", "mx-ecd3cf"
				delete(rec, "files")
			}
		}
		file := filepath.Join("expertise", domain+".jsonl")
		if i%20 == 19 {
			file = filepath.Join("archive", domain+".jsonl")
			rec["status"], rec["archived_at"], rec["archive_reason"] = "archived", "2026-01-01T00:00:00.000Z", "stale"
			archived++
		}
		line, err := json.Marshal(rec)
		check(err)
		if files[file] == nil {
			files[file] = &strings.Builder{}
		}
		files[file].Write(append(line, '\n'))
	}
	for f, b := range files {
		check(os.WriteFile(filepath.Join(src, f), []byte(b.String()), 0o644))
	}
	var times, base []time.Duration
	for i := 0; i <= slowRuns(); i++ {
		agentDir := project(filepath.Join(dir, fmt.Sprint(i)), fmt.Sprintf("m%d", i), []string{"a"}, 0)[0]
		d := timed(agentDir, planqBin, "import", "mulch", src)
		if out := output(agentDir, nil, "git", "log", "-1", "--format=%s"); out != fmt.Sprintf("import: %d learnings from mulch", n) {
			fmt.Fprintf(os.Stderr, "import did not write %d learnings: %q\n", n, out)
			os.Exit(2)
		}
		if got := strings.Count(output(agentDir, nil, "git", "ls-files", "learnings"), "/pq-"); got != n+archived {
			fmt.Fprintf(os.Stderr, "import wrote %d files, want %d learnings and %d archive records\n", got, n, archived)
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
	fmt.Printf("mulch: planq import mulch of %d records (%d archived) %s   git add+commit of %d files %s (target <= 2s)\n", n, archived, ms(median(times)), n, ms(median(base)))
	return report(median(times) <= 2*time.Second)
}
