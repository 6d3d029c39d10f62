package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// benchMemtool: one command of the memory-tool protocol (planq memtool,
// a create of a new file and a str_replace in one) against git add + git
// commit of the same file in the same worktree, an agent with 150 records
// (issue 30: at most 1.2x). Runs alternate, so the machine's noise falls
// on both alike.
func benchMemtool(dir string) bool {
	agentDir := project(dir, "mem", []string{"a"}, 150)[0]
	command := func(m map[string]any) string {
		data, err := json.Marshal(m)
		check(err)
		return string(data)
	}
	text := "# Build notes\nRun mage install before the tests; the assets compile first.\n"
	check(os.MkdirAll(filepath.Join(agentDir, "plain"), 0o755))
	var create, replace, gitCreate, gitReplace []time.Duration
	for i := 0; i < max(*runs, 51); i++ {
		name := fmt.Sprintf("note-%d.md", i)
		d, _ := timedOut(agentDir, command(map[string]any{"command": "create", "path": "/memories/" + name, "file_text": text}), planqBin, "memtool")
		create = append(create, d)
		d, _ = timedOut(agentDir, command(map[string]any{"command": "str_replace", "path": "/memories/" + name, "old_str": "mage install", "new_str": "mage build"}), planqBin, "memtool")
		replace = append(replace, d)

		plain := filepath.Join("plain", name)
		check(os.WriteFile(filepath.Join(agentDir, plain), []byte(text), 0o644))
		gitCreate = append(gitCreate, timed(agentDir, "git", "add", plain)+timed(agentDir, "git", "commit", "-q", "-m", "create "+name))
		check(os.WriteFile(filepath.Join(agentDir, plain), []byte(text[:20]+"mage build"+text[32:]), 0o644))
		gitReplace = append(gitReplace, timed(agentDir, "git", "add", plain)+timed(agentDir, "git", "commit", "-q", "-m", "replace in "+name))
	}
	ok := true
	for _, m := range []struct {
		name      string
		planq, gt []time.Duration
	}{{"create", create, gitCreate}, {"str_replace", replace, gitReplace}} {
		ratio := float64(median(m.planq)) / float64(median(m.gt))
		fmt.Printf("memtool %-11s planq %s   git add+commit %s   ratio %.2fx (target <= 1.2x)\n", m.name, ms(median(m.planq)), ms(median(m.gt)), ratio)
		ok = report(ratio <= 1.2) && ok
	}
	return ok
}
