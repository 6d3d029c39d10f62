package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// benchKB: planq kb bootstrap of a project with a past (issue 29: at most
// 30 s): 10,000 learnings and decisions on global, a code repository of
// 5,000 commits (one in ten stating a decision, one in fifty a revert, with
// conventional scopes), 40 ADRs, an AGENTS.md of 60 bullets, and in HOME
// Claude Code's memory of the checkout (20 topic files) and a transcript of
// 20,000 lines. Each run starts from the same state (the state repository
// copied back), the record cache warm, as on a machine that has used
// planq. The baseline is git log of the 5,000 commits.
//
//	go run ./scripts/bench -only kb
func benchKB(dir string) bool {
	const records, commits = 10000, 5000
	start := time.Now()
	repo := filepath.Join(dir, "code")
	check(os.MkdirAll(repo, 0o755))
	run(repo, "git", "init", "-q")
	history(repo, commits)
	run(repo, "git", "reset", "-q", "--hard", "main")
	adrs(repo, 40)
	agents := "# Agents\n\n"
	for s := range 6 {
		agents += fmt.Sprintf("## Section %d\n\n", s)
		for b := range 10 {
			agents += fmt.Sprintf("- Rule %d of section %d: keep the handlers small and test them against real git.\n", b, s)
		}
		agents += "\n"
	}
	check(os.WriteFile(filepath.Join(repo, "AGENTS.md"), []byte(agents), 0o644))
	run(repo, "git", "add", ".")
	run(repo, "git", "commit", "-q", "-m", "docs: ADRs and instructions")
	run(repo, planqBin, "init", "--project", "kb")

	state := filepath.Join(homeOf(), "state-repos", "kb.git")
	work := filepath.Join(dir, "global-seed")
	run(dir, "git", "clone", "-q", "--branch", "global", state, work)
	seedMix(work, "a", records, mixPromotable)
	run(work, "git", "push", "-q", "origin", "HEAD:global")
	check(os.RemoveAll(work))
	agentMemory(repo, 20, 20000)
	run(repo, planqBin, "status") // the record cache, warm
	fmt.Printf("kb: %s records, %s commits, 40 ADRs and an agent's memory seeded in %s\n", commas(records), commas(commits), time.Since(start).Round(time.Second))

	var times, dry, logs []time.Duration
	var out string
	for range slowRuns() {
		restore := snapshot(state)
		logs = append(logs, timed(repo, "git", "log", "--format=%H%n%aI%n%B", "HEAD"))
		dry = append(dry, timed(repo, planqBin, "kb", "bootstrap", "--dry-run"))
		t := time.Now()
		out = outputIn(repo, planqBin, "kb", "bootstrap", "--json")
		times = append(times, time.Since(t))
		restore()
	}
	created := strings.Count(out, `"origin":`)
	m := median(times)
	fmt.Printf("kb: planq kb bootstrap: median %s, %d records created, --dry-run %s; git log %s (target <= 30s)\n",
		ms(m), created, ms(median(dry)), ms(median(logs)))
	if created < commits/10 {
		fmt.Println("kb: the bootstrap created fewer records than the history states")
		return report(false)
	}
	return report(m <= 30*time.Second)
}

// history writes n commits on main with git fast-import: conventional
// subjects over eight scopes, one in ten stating a decision and its reason,
// one in fifty a revert that says why.
func history(repo string, n int) {
	scopes := []string{"auth", "api", "db", "ci", "ui", "infra", "docs", "perf"}
	var b strings.Builder
	at := time.Now().AddDate(-3, 0, 0).Unix()
	for i := range n {
		scope := scopes[i%len(scopes)]
		msg := fmt.Sprintf("feat(%s): part %d of the %s work\n\nWhat changed in part %d, in a few words.\n", scope, i, scope, i)
		switch {
		case i%50 == 49:
			msg = fmt.Sprintf("Revert \"feat(%s): part %d of the %s work\"\n\nThis reverts commit %040x.\n\nPart %d broke the %s tests on the release branch.\n", scope, i-1, scope, i, i, scope)
		case i%10 == 3:
			msg += fmt.Sprintf("\nDecision: keep %s part %d behind a flag\nBecause: the %s rollout %d must be reversible.\n", scope, i, scope, i)
		}
		fmt.Fprintf(&b, "commit refs/heads/main\nmark :%d\ncommitter Bench <bench@example.com> %d +0000\ndata %d\n%s", i+1, at+int64(i)*3600, len(msg), msg)
		if i > 0 {
			fmt.Fprintf(&b, "from :%d\n", i)
		}
		content := fmt.Sprintf("part %d\n", i)
		fmt.Fprintf(&b, "M 644 inline src/%s/part%d.txt\ndata %d\n%s\n", scope, i%100, len(content), content)
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir, cmd.Env, cmd.Stdin = repo, env, strings.NewReader(b.String())
	out, err := cmd.CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "git fast-import: %v\n%s", err, out)
		os.Exit(2)
	}
}

// adrs writes n ADRs in Nygard's format under docs/adr, every fifth
// superseded by the next.
func adrs(repo string, n int) {
	d := filepath.Join(repo, "docs", "adr")
	check(os.MkdirAll(d, 0o755))
	for i := 1; i <= n; i++ {
		status := "Accepted"
		if i%5 == 0 && i < n {
			status = fmt.Sprintf("Superseded by [%d. Decision %d](%04d-decision-%d.md)", i+1, i+1, i+1, i+1)
		}
		doc := fmt.Sprintf("# %d. Decision %d\n\nDate: 2024-01-%02d\n\n## Status\n\n%s\n\n## Context\n\nPart %d of the system needs a rule.\n\n"+
			"## Decision\n\nWe will handle part %d with a queue.\n\n## Consequences\n\nPart %d scales.\n", i, i, i%28+1, status, i, i, i)
		check(os.WriteFile(filepath.Join(d, fmt.Sprintf("%04d-decision-%d.md", i, i)), []byte(doc), 0o644))
	}
}

// agentMemory writes Claude Code's memory of the checkout at repo into
// HOME: MEMORY.md and topics topic files, and a transcript of lines
// lines, one in a thousand asking to remember something.
func agentMemory(repo string, topics, lines int) {
	home := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "HOME="); ok {
			home = v
		}
	}
	key := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, repo)
	base := filepath.Join(home, ".claude", "projects", key)
	mem := filepath.Join(base, "memory")
	check(os.MkdirAll(mem, 0o755))
	index := "# Memory\n\n"
	for i := range topics {
		name := fmt.Sprintf("feedback_%d.md", i)
		index += fmt.Sprintf("- [Feedback %d](%s) - how part %d is done\n", i, name, i)
		doc := fmt.Sprintf("---\nname: feedback_%d\ndescription: how part %d is done\nmetadata:\n  type: feedback\n---\nPart %d is tested against a real database, never mocks.\n", i, i, i)
		check(os.WriteFile(filepath.Join(mem, name), []byte(doc), 0o644))
	}
	check(os.WriteFile(filepath.Join(mem, "MEMORY.md"), []byte(index), 0o644))
	var b strings.Builder
	for i := range lines {
		text := fmt.Sprintf("please look at part %d of the handler and tell me what it does with the retries and the backoff", i)
		if i%1000 == 7 {
			text = fmt.Sprintf("remember that part %d must stay backwards compatible", i)
		}
		fmt.Fprintf(&b, `{"type":"user","message":{"role":"user","content":%q},"timestamp":"2025-01-01T00:00:00Z","cwd":%q}`+"\n", text, repo)
		fmt.Fprintf(&b, `{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Part %d retries three times with backoff."}]}}`+"\n", i)
	}
	check(os.WriteFile(filepath.Join(base, "session.jsonl"), []byte(b.String()), 0o644))
}

// outputIn runs a command in dir and returns its stdout.
func outputIn(dir, name string, args ...string) string {
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.Output()
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s %v: %v\n", name, args, err)
		os.Exit(2)
	}
	return string(out)
}
