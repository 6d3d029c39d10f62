package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/planq-dev/planq/changelog"
)

// benchReview: the review page's first load with 1,000 raw notes and 20
// pending proposals (issue 15: at most 200 ms), and applying a proposal
// (at most 300 ms), both from the command line (a whole planq process) and
// through the page's API. Each first load is a fresh 'planq ui': the GET
// of the page right after it printed its URL. git add + commit of the same
// file is the apply's baseline.
func benchReview(dir string) bool {
	const notes, proposals = 1000, 20
	agentDir := project(dir, "rv", []string{"a"}, 0)[0]
	work := filepath.Dir(filepath.Dir(agentDir))
	ids := seedNotes(agentDir, "a", notes+proposals)
	for i := range proposals {
		p := map[string]any{"proposed_files": map[string]string{fmt.Sprintf(".cursor/rules/rule-%02d.mdc", i): fmt.Sprintf("---\nalwaysApply: true\n---\nRule %d: run make lint before pushing.\n", i)},
			"diff_summary": fmt.Sprintf("rule %d", i), "entries_used": []string{ids[notes+i]}}
		data, err := json.Marshal(p)
		check(err)
		output(work, strings.NewReader(string(data)), planqBin, "propose")
	}
	if raw := output(work, nil, "sh", "-c", planqBin+" notes --state raw --json | grep -c '\"id\"'"); raw != fmt.Sprint(notes) {
		fmt.Fprintf(os.Stderr, "review bench: %s raw notes, want %d\n", raw, notes)
		os.Exit(2)
	}
	var first, warm []time.Duration
	size := 0
	for range *runs {
		url, stop := startUI(work)
		t0 := time.Now()
		size = getPage(url)
		first = append(first, time.Since(t0))
		t0 = time.Now()
		getPage(url)
		warm = append(warm, time.Since(t0))
		stop()
	}
	fmt.Printf("review page, %d raw notes and %d pending proposals: first load %s, again %s, %d KiB (target <= 200ms)\n",
		notes, proposals, ms(median(first)), ms(median(warm)), size/1024)
	ok := report(median(first) <= 200*time.Millisecond)

	// Apply, half from the command line, half through the page's API.
	list := output(work, nil, planqBin, "proposals", "list", "--json")
	var views []struct {
		ID string `json:"id"`
	}
	check(json.Unmarshal([]byte(list), &views))
	var cli, api, base []time.Duration
	url, stop := startUI(work)
	client := &http.Client{}
	cookie := "planq_token=" + url[strings.Index(url, "token=")+len("token="):]
	root := url[:strings.Index(url, "/?")]
	for i, v := range views {
		if i%2 == 0 {
			cli = append(cli, timed(work, planqBin, "proposals", "apply", v.ID))
		} else {
			req, err := http.NewRequest("POST", root+"/api/learnings/rv/proposals/"+v.ID+"/apply", nil)
			check(err)
			req.Header.Set("Cookie", cookie)
			t0 := time.Now()
			res, err := client.Do(req)
			check(err)
			_, _ = io.Copy(io.Discard, res.Body)
			_ = res.Body.Close()
			api = append(api, time.Since(t0))
			if res.StatusCode != http.StatusOK {
				fmt.Fprintf(os.Stderr, "review bench: apply %s: %s\n", v.ID, res.Status)
				os.Exit(2)
			}
		}
		name := fmt.Sprintf("plain-%d.md", i)
		check(os.WriteFile(filepath.Join(work, name), []byte("plain\n"), 0o644))
		base = append(base, timed(work, "git", "add", name)+timed(work, "git", "commit", "-q", "-m", "plain "+name))
	}
	stop()
	if n := output(work, nil, "sh", "-c", "git log --format=%s | grep -c 'from curated agent notes'"); n != fmt.Sprint(proposals) {
		fmt.Fprintf(os.Stderr, "review bench: %s apply commits, want %d\n", n, proposals)
		os.Exit(2)
	}
	fmt.Printf("apply a proposal: planq proposals apply %s, through the page's API %s   git add+commit %s (target <= 300ms)\n",
		ms(median(cli)), ms(median(api)), ms(median(base)))
	return report(median(cli) <= 300*time.Millisecond && median(api) <= 300*time.Millisecond) && ok
}

// seedNotes writes n raw notes into an agent worktree and commits them at
// once, and returns their IDs, oldest first.
func seedNotes(agentDir, agent string, n int) []string {
	start := time.Now().UTC().Add(-time.Duration(n) * time.Minute)
	ids := make([]string, n)
	for i := range n {
		r, err := changelog.NewNote(changelog.NoteInput{Text: fmt.Sprintf("note %d: run make bench-%d, not go test -bench, before pushing", i, i%37),
			Workspace: "a", AgentKind: "claude"})
		check(err)
		r.Agent, r.Timestamp = agent, start.Add(time.Duration(i)*time.Minute)
		r.ID = changelog.NewID(r.Agent, r.Kind, r.Body, r.Timestamp)
		data, err := changelog.Render(r)
		check(err)
		path := filepath.Join(agentDir, filepath.FromSlash(changelog.RecordPath(r)))
		check(os.MkdirAll(filepath.Dir(path), 0o755))
		check(os.WriteFile(path, data, 0o644))
		ids[i] = r.ID
	}
	run(agentDir, "git", "add", "-A")
	run(agentDir, "git", "commit", "-q", "-m", fmt.Sprintf("%d notes", n))
	return ids
}

// startUI starts planq ui in dir and returns its URL, once printed, and
// how to stop it.
func startUI(dir string) (string, func()) {
	cmd := exec.Command(planqBin, "ui", "--no-browser")
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.StdoutPipe()
	check(err)
	check(cmd.Start())
	line, err := bufio.NewReader(out).ReadString('\n')
	check(err)
	return strings.TrimSpace(line), func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	}
}

// getPage GETs the page and reads it whole; it returns its size.
func getPage(url string) int {
	res, err := http.Get(url)
	check(err)
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	check(err)
	if res.StatusCode != http.StatusOK || !strings.Contains(string(body), `id="badge"`) {
		fmt.Fprintf(os.Stderr, "review bench: the page: %s\n%.500s\n", res.Status, body)
		os.Exit(2)
	}
	return len(body)
}
