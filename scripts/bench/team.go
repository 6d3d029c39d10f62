package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// benchPromote: promote of 1,000 new records into a global of 10,000.
// Each run starts from the same global (reset to it), so every run promotes
// the same 1,000 records into the same 10,000.
func benchPromote(dir string) bool {
	dirs := project(dir, "p", []string{"old", "new"}, 0)
	seedRecords(dirs[0], "old", 10000, true)
	repo := filepath.Join(dir, "code")
	run(repo, planqBin, "context", "promote", "--agent", "old", "--all")
	seedRecords(dirs[1], "new", 1000, true)
	state := filepath.Join(homeOf(), "state-repos", "p.git")
	base := output(state, nil, "git", "rev-parse", "global")
	var times []time.Duration
	for i := 0; i <= *runs; i++ {
		run(state, "git", "update-ref", "refs/heads/global", base)
		d := timed(repo, planqBin, "context", "promote", "--agent", "new", "--all")
		if i == 0 {
			fmt.Printf("promote 1,000 into 10,000: first run, records not cached yet: %s\n", ms(d))
			continue
		}
		times = append(times, d)
	}
	m := median(times)
	fmt.Printf("promote 1,000 into 10,000: median %s (target <= 300ms)\n", ms(m))
	return report(m <= 300*time.Millisecond)
}

// benchPull: a pull that merges 5,000 remote records with 5,000 different
// local ones, and a fast-forward pull of 5,000 records beside a plain git
// fetch of the same. Three machines share one bare remote; every run pulls
// into a fresh copy of the same prepared state repository.
func benchPull(dir string) bool {
	remote := filepath.Join(dir, "team.git")
	run(dir, "git", "init", "-q", "--bare", remote)
	one := project(filepath.Join(dir, "one"), "t", nil, 0, "--remote", remote)
	_ = one
	codeOne := filepath.Join(dir, "one", "code")
	run(codeOne, "git", "add", ".planq/config")
	run(codeOne, "git", "commit", "-q", "-m", "planq")
	run(codeOne, planqBin, "state", "push")

	two, three := machine(dir, "two", codeOne), machine(dir, "three", codeOne)
	// Machine two records and promotes 5,000 of its own.
	run2 := func(args ...string) { runEnv(two.code, two.env, planqBin, args...) }
	run2("create", "b")
	seedRecords(filepath.Join(two.home, "workspaces", "t", "b", ".planq", "agent"), "b", 5000, true)
	run2("context", "promote", "--agent", "b", "--all")
	// Machine one records, promotes and pushes 5,000 others.
	run(codeOne, planqBin, "create", "a")
	seedRecords(filepath.Join(homeOf(), "workspaces", "t", "a", ".planq", "agent"), "a", 5000, true)
	run(codeOne, planqBin, "context", "promote", "--agent", "a", "--all")
	run(codeOne, planqBin, "state", "push")

	var merged []time.Duration
	for i := 0; i < *runs; i++ {
		restore := snapshot(two.state)
		merged = append(merged, timedEnv(two.code, two.env, planqBin, "state", "pull"))
		if !pullMerged(two.state) {
			fmt.Println("pull did not merge")
			return report(false)
		}
		restore()
	}
	m := median(merged)
	fmt.Printf("pull merging 5,000 remote with 5,000 local records: median %s (target <= 1.5s)\n", ms(m))
	ok := report(m <= 1500*time.Millisecond)

	var planq, git []time.Duration
	for i := 0; i < *runs; i++ {
		restore := snapshot(three.state)
		planq = append(planq, timedEnv(three.code, three.env, planqBin, "state", "pull"))
		restore()
		restore = snapshot(three.state)
		git = append(git, timed(three.state, "git", "fetch", "--no-tags", "origin", "+refs/planq/global:refs/planq/remotes/origin/global"))
		restore()
	}
	ratio := float64(median(planq)) / float64(median(git))
	fmt.Printf("fast-forward pull, 5,000 records: planq %s   git fetch %s   ratio %.2fx (target <= 1.3x)\n", ms(median(planq)), ms(median(git)), ratio)
	return report(ratio <= 1.3) && ok
}

// pullMerged says whether the last pull into state committed a merge: the
// knowledge base's update may have moved global after it, so the pull's
// commit is found by its reflog entry.
func pullMerged(state string) bool {
	for _, line := range strings.Split(output(state, nil, "git", "log", "-g", "-n", "3", "--format=%P|%gs", "global"), "\n") {
		parents, reason, _ := strings.Cut(line, "|")
		if strings.HasPrefix(reason, "planq: pull ") && len(strings.Fields(parents)) == 2 {
			return true
		}
	}
	return false
}

// host is a second machine: a clone of the code and a PLANQ_HOME of its own.
type host struct {
	code, home, state string
	env               []string
}

func machine(dir, name, code string) host {
	h := host{code: filepath.Join(dir, name, "code"), home: filepath.Join(dir, name, "planq")}
	h.state = filepath.Join(h.home, "state-repos", "t.git")
	h.env = []string{"PLANQ_HOME=" + h.home}
	run(dir, "git", "clone", "-q", code, h.code)
	runEnv(h.code, h.env, planqBin, "init")
	return h
}

// benchGC: gc of 500 merged agent branches, each run on a fresh copy.
func benchGC(dir string) bool {
	project(dir, "g", nil, 0)
	repo := filepath.Join(dir, "code")
	state := filepath.Join(homeOf(), "state-repos", "g.git")
	// 500 agent branches, each a commit on global's line: all merged.
	var refs strings.Builder
	parent := output(state, nil, "git", "rev-parse", "global")
	tree := output(state, nil, "git", "rev-parse", "global^{tree}")
	for i := 0; i < 500; i++ {
		parent = output(state, nil, "git", "commit-tree", tree, "-p", parent, "-m", fmt.Sprintf("agent %d", i))
		fmt.Fprintf(&refs, "create refs/heads/agent-b%03d %s\n", i, parent)
	}
	fmt.Fprintf(&refs, "update refs/heads/global %s\n", parent)
	output(state, strings.NewReader(refs.String()), "git", "update-ref", "--stdin")
	var times []time.Duration
	for i := 0; i < max(3, *runs/4); i++ {
		restore := snapshot(state)
		times = append(times, timed(repo, planqBin, "state", "gc"))
		if left := output(state, nil, "git", "for-each-ref", "--count=1", "refs/heads/agent-*"); left != "" {
			fmt.Println("gc left agent branches behind:", left)
			return report(false)
		}
		restore()
	}
	m := median(times)
	fmt.Printf("gc of 500 merged agent branches: median %s (target <= 3s)\n", ms(m))
	return report(m <= 3*time.Second)
}

// snapshot copies a directory aside and returns a function that puts the
// copy back, so a run can be repeated on the same starting state.
func snapshot(path string) func() {
	saved := path + ".saved"
	check(os.RemoveAll(saved))
	run("", "cp", "-a", path, saved)
	return func() {
		check(os.RemoveAll(path))
		check(os.Rename(saved, path))
	}
}

// output runs a command and returns its trimmed stdout.
func output(dir string, stdin *strings.Reader, name string, args ...string) string {
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	if stdin != nil {
		cmd.Stdin = stdin
	}
	out, err := cmd.Output()
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s %v: %v\n", name, args, err)
		os.Exit(2)
	}
	return strings.TrimSpace(string(out))
}

func runEnv(dir string, extra []string, name string, args ...string) {
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, append(append([]string{}, env...), extra...)
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "%s %v: %v\n%s", name, args, err, out)
		os.Exit(2)
	}
}

func timedEnv(dir string, extra []string, name string, args ...string) time.Duration {
	saved := env
	env = append(append([]string{}, env...), extra...)
	defer func() { env = saved }()
	return timed(dir, name, args...)
}
