package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// primeProject makes a project whose global holds 10,000 learnings, and an
// agent "work" mounted in the code checkout; it returns the checkout.
func primeProject(dir, name string) string {
	dirs := project(dir, name, []string{"old"}, 0)
	seedMix(dirs[0], "old", 10000, mixLearnings)
	repo := filepath.Join(dir, "code")
	run(repo, planqBin, "context", "promote", "--agent", "old", "--all")
	run(repo, planqBin, "create", "work", "--here")
	run(repo, planqBin, "context", "set", "Token refresh on 401")
	return repo
}

// benchPrime: planq prime and planq hook session-start with 10,000
// learnings in global, whole process, output within budget.
func benchPrime(dir string) bool {
	repo := primeProject(dir, "pr")
	hookInput := `{"session_id":"b","hook_event_name":"SessionStart","source":"startup"}`
	timed(repo, planqBin, "prime") // the first run fills the record cache
	var primeTimes, hookTimes []time.Duration
	var primeOut, hookOut string
	for i := 0; i < *runs; i++ {
		d, out := timedOut(repo, "", planqBin, "prime")
		primeTimes, primeOut = append(primeTimes, d), out
		d, out = timedOut(repo, hookInput, planqBin, "hook", "session-start", "--agent", "claude")
		hookTimes, hookOut = append(hookTimes, d), out
	}
	var hook struct {
		HookSpecificOutput struct {
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(hookOut), &hook); err != nil {
		fmt.Println("hook output is not JSON:", err)
		return report(false)
	}
	mp, mh := median(primeTimes), median(hookTimes)
	ctxLen := len(hook.HookSpecificOutput.AdditionalContext)
	fmt.Printf("prime, 10,000 learnings in global: median %s, %d characters (targets <= 80ms, <= 10,000)\n", ms(mp), len(primeOut))
	ok := report(mp <= 80*time.Millisecond && len(primeOut) <= 10000)
	fmt.Printf("hook session-start (claude): median %s, context %d characters (targets <= 80ms, <= 10,000)\n", ms(mh), ctxLen)
	return report(mh <= 80*time.Millisecond && ctxLen <= 10000 && ctxLen > 0) && ok
}

// benchMCP: the round trip of planq_log on a running server, and the
// server's peak memory with 10,000 records loaded.
func benchMCP(dir string) bool {
	repo := primeProject(dir, "mc")
	ctx := context.Background()
	cmd := exec.Command(planqBin, "mcp", "serve", "--project", repo)
	cmd.Env = env
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	check(err)
	defer session.Close()
	callTool := func(name string, args map[string]any) time.Duration {
		start := time.Now()
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		d := time.Since(start)
		check(err)
		if res.IsError {
			fmt.Fprintf(os.Stderr, "%s failed: %v\n", name, res.Content)
			os.Exit(2)
		}
		return d
	}
	// Load every record once, as a session's first search would.
	callTool("planq_search", map[string]any{"query": "retries idempotent"})
	var times []time.Duration
	for i := 0; i < max(*runs, 21); i++ {
		times = append(times, callTool("planq_log", map[string]any{"message": fmt.Sprintf("bench entry %d", i)}))
	}
	var searches []time.Duration
	for i := 0; i < max(*runs, 21); i++ {
		searches = append(searches, callTool("planq_search", map[string]any{"query": "flaky test retries", "queries": []string{"ci cache"}}))
	}
	peak := peakRSS(cmd.Process.Pid)
	m, ms2 := median(times), median(searches)
	fmt.Printf("MCP planq_log round trip, 10,000 records: median %s (target <= 30ms); server peak RSS %.1f MiB (target <= 64 MiB)\n", ms(m), float64(peak)/1024)
	ok := report(m <= 30*time.Millisecond && peak > 0 && peak <= 64*1024)
	fmt.Printf("MCP planq_search round trip, two phrasings, 10,000 records: median %s (target <= 15ms)\n", ms(ms2))
	return report(ms2 <= 15*time.Millisecond) && ok
}

// peakRSS reads a running process's peak resident set, in KiB.
func peakRSS(pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return n
		}
	}
	return 0
}

// timedOut runs a command with stdin and returns its time and stdout.
func timedOut(dir, stdin, name string, args ...string) (time.Duration, string) {
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdin = strings.NewReader(stdin)
	start := time.Now()
	out, err := cmd.Output()
	d := time.Since(start)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s %v: %v\n", name, args, err)
		os.Exit(2)
	}
	return d, string(out)
}
