package cli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/failpoint"
	"github.com/planq-dev/planq/internal/testkit/testgit"
)

// machine is one computer in a crash test: a HOME of its own with planq's
// state under it, and a clone of the code repository.
type machine struct {
	t    *testing.T
	home string
	app  string // the code checkout
	env  []string
}

// newMachine gives a test a machine whose checkout is a clone of origin
// (a fresh repository with one commit when origin is "").
func newMachine(t *testing.T, root, name, origin string) *machine {
	t.Helper()
	m := &machine{t: t, home: filepath.Join(root, name), app: filepath.Join(root, name, "app")}
	if err := os.MkdirAll(m.home, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := testgit.WriteConfig(m.home); err != nil {
		t.Fatal(err)
	}
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !strings.HasPrefix(k, "PLANQ_") && !strings.HasPrefix(k, "GIT_") {
			m.env = append(m.env, kv)
		}
	}
	for k, v := range testgit.Vars(m.home) {
		m.env = append(m.env, k+"="+v)
	}
	m.env = append(m.env, "TZ=UTC", "NO_COLOR=1")
	if origin == "" {
		if err := os.MkdirAll(m.app, 0o755); err != nil {
			t.Fatal(err)
		}
		m.git(m.app, "init", "-q")
		m.git(m.app, "commit", "-q", "--allow-empty", "-m", "init")
	} else {
		m.git(root, "clone", "-q", origin, m.app)
	}
	return m
}

func (m *machine) stateRepo() string {
	return filepath.Join(m.home, ".planq", "state-repos", "demo.git")
}

func (m *machine) workspace(agent string) string {
	return filepath.Join(m.home, ".planq", "workspaces", "demo", agent)
}

func (m *machine) git(dir string, args ...string) string {
	m.t.Helper()
	return testgit.RunEnv(m.t, m.env, dir, args...)
}

func (m *machine) command(dir string, args []string, extraEnv ...string) *exec.Cmd {
	cmd := exec.Command("planq", args...)
	cmd.Dir, cmd.Env = dir, append(slices.Clip(m.env), extraEnv...)
	return cmd
}

// planq runs planq in dir and fails the test unless it succeeds.
func (m *machine) planq(dir string, args ...string) string {
	m.t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := m.command(dir, args)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		m.t.Fatalf("planq %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return stdout.String()
}

// crashAt runs planq in dir with point armed and fails the test unless
// the process died there, killed as a crash would kill it.
func (m *machine) crashAt(point failpoint.Point, dir string, args ...string) {
	m.t.Helper()
	var stderr bytes.Buffer
	cmd := m.command(dir, args, failpoint.CrashVar+"="+string(point))
	cmd.Stderr = &stderr
	leadOwnGroup(cmd) // planq leads its group, as in a shell
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		m.t.Fatalf("planq %s with %s armed did not crash (err %v): the point was never reached\n%s", strings.Join(args, " "), point, err, stderr.Bytes())
	}
	if !killedAsCrashed(exit) {
		m.t.Fatalf("planq %s with %s armed ended with %v, not killed at the point\n%s", strings.Join(args, " "), point, err, stderr.Bytes())
	}
}

// records is every record path on every ref of the bare repository repo.
func (m *machine) records(repo string) map[string]bool {
	m.t.Helper()
	all := map[string]bool{}
	for _, ref := range strings.Fields(m.git(repo, "for-each-ref", "--format=%(refname)")) {
		for _, p := range strings.Split(m.git(repo, "ls-tree", "-r", "--name-only", ref), "\n") {
			if changelog.IsRecordPath(p) {
				all[p] = true
			}
		}
	}
	return all
}

// fsck fails the test unless git finds every repository sound.
func (m *machine) fsck(repos ...string) {
	m.t.Helper()
	for _, r := range repos {
		m.git(r, "fsck", "--strict", "--no-progress", "--no-dangling")
	}
}

// learn writes a learning as agent in the project at dir.
func (m *machine) learn(dir, agent, text string) {
	m.t.Helper()
	m.planq(dir, "learn", text, "--type", "guide", "--domain", "ops", "--agent", agent)
}

// count is how many of repo's record paths at ref are under dir.
func (m *machine) count(repo, ref, dir string) int {
	m.t.Helper()
	out := m.git(repo, "ls-tree", "-r", "--name-only", ref, dir)
	n := 0
	for _, p := range strings.Split(out, "\n") {
		if changelog.IsRecordPath(p) {
			n++
		}
	}
	return n
}

// crashCase is one failpoint's test: set up a project, crash the command at
// the point, run the same command again and check it converged.
type crashCase struct {
	point failpoint.Point
	// setup prepares the machines and returns the one the command runs on,
	// the directory it runs in, and the command.
	setup func(t *testing.T, root string) (m *machine, dir string, args []string)
	// converged checks the state after the second run.
	converged func(t *testing.T, m *machine)
	// repos are the repositories fsck must find sound, besides m's state repository.
	repos func(m *machine) []string
}

// teamMachine makes machine one with a project "demo" on a team remote, agent a
// mounted in its own workspace, and returns it.
func teamMachine(t *testing.T, root string) *machine {
	t.Helper()
	m := newMachine(t, root, "one", "")
	m.git(root, "init", "-q", "--bare", filepath.Join(root, "team.git"))
	m.planq(m.app, "init", "--project", "demo", "--remote", filepath.Join(root, "team.git"))
	m.git(m.app, "add", ".planq/config")
	m.git(m.app, "commit", "-q", "-m", "planq")
	m.planq(m.app, "create", "a")
	return m
}

// diverged makes two machines whose globals have each a promote the other
// lacks, the first's pushed, and returns the second.
func diverged(t *testing.T, root string) *machine {
	t.Helper()
	one := teamMachine(t, root)
	one.learn(one.app, "a", "first machine's first")
	one.planq(one.app, "context", "promote", "--agent", "a", "--all")
	one.planq(one.app, "state", "push")
	two := newMachine(t, root, "two", one.app)
	two.planq(two.app, "init")
	two.planq(two.app, "create", "b")
	two.learn(two.app, "b", "second machine's own")
	two.planq(two.app, "context", "promote", "--agent", "b", "--all")
	one.learn(one.app, "a", "first machine's second")
	one.planq(one.app, "context", "promote", "--agent", "a", "--all")
	one.planq(one.app, "state", "push")
	return two
}

func remoteOf(m *machine) string { return filepath.Join(filepath.Dir(m.home), "team.git") }

func crashCases() []crashCase {
	learnIn := func(t *testing.T, root string) (*machine, string, []string) {
		m := teamMachine(t, root)
		m.learn(m.app, "a", "before the crash")
		return m, m.workspace("a"), []string{"learn", "written under fire", "--type", "guide", "--domain", "ops"}
	}
	learnConverged := func(t *testing.T, m *machine) {
		// Whatever the crash left behind, doctor --fix commits; then the
		// worktree is clean and nothing written is missing.
		m.planq(m.app, "doctor", "--fix")
		agentDir := filepath.Join(m.workspace("a"), ".planq", "agent")
		if st := m.git(agentDir, "status", "--porcelain"); st != "" {
			t.Errorf("agent worktree not clean after doctor --fix:\n%s", st)
		}
		if n := m.count(m.stateRepo(), "agent-a", "learnings"); n < 2 {
			t.Errorf("agent-a holds %d learnings, want the one before and the one rewritten", n)
		}
	}
	pull := func(t *testing.T, root string) (*machine, string, []string) {
		m := diverged(t, root)
		return m, m.app, []string{"state", "pull"}
	}
	pullConverged := func(t *testing.T, m *machine) {
		if n := m.count(m.stateRepo(), "global", "learnings"); n != 3 {
			t.Errorf("global holds %d learnings after pulling, want 3 (two pulled, one own)", n)
		}
	}
	withRemote := func(m *machine) []string { return []string{remoteOf(m)} }
	pushed := func(t *testing.T, m *machine) {
		if local, remote := m.git(m.stateRepo(), "rev-parse", "global"), m.git(remoteOf(m), "rev-parse", "refs/planq/global"); local != remote {
			t.Errorf("remote has global %s, this machine %s", remote, local)
		}
	}
	gcSetup := func(t *testing.T, root string) (*machine, string, []string) {
		m := teamMachine(t, root)
		m.learn(m.app, "a", "kept after gc")
		m.planq(m.app, "context", "promote", "--agent", "a", "--all")
		m.planq(m.app, "remove", "a")
		return m, m.app, []string{"state", "gc"}
	}
	gcConverged := func(t *testing.T, m *machine) {
		if out := m.git(m.stateRepo(), "branch", "--list", "agent-a"); out != "" {
			t.Errorf("agent-a still a branch after gc: %q", out)
		}
		if out := m.git(m.stateRepo(), "for-each-ref", "refs/planq/archive/a/"); out == "" {
			t.Error("gc kept no archive of agent-a")
		}
	}
	createConverged := func(t *testing.T, m *machine) {
		agentDir := filepath.Join(m.workspace("b"), ".planq", "agent")
		if got := m.git(agentDir, "rev-parse", "--abbrev-ref", "HEAD"); got != "agent-b" {
			t.Errorf("b's mount is on %q, want agent-b", got)
		}
	}
	remove := func(t *testing.T, root string) (*machine, string, []string) {
		m := teamMachine(t, root)
		if err := os.WriteFile(filepath.Join(m.workspace("a"), ".planq", "agent", "scratch.md"), []byte("unsaved thought\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return m, m.app, []string{"remove", "a"}
	}
	removeConverged := func(t *testing.T, m *machine) {
		if _, err := os.Stat(m.workspace("a")); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("workspace of a still there after remove: %v", err)
		}
		if got := m.git(m.stateRepo(), "show", "agent-a:scratch.md"); !strings.Contains(got, "unsaved thought") {
			t.Errorf("agent-a's scratch lost its unsaved note: %q", got)
		}
	}
	return []crashCase{
		{point: failpoint.RecordFileWritten, setup: learnIn, converged: learnConverged},
		{point: failpoint.CommitWritten, setup: learnIn, converged: learnConverged},
		{
			point: failpoint.CheckpointCommitted,
			setup: func(t *testing.T, root string) (*machine, string, []string) {
				m := teamMachine(t, root)
				return m, m.workspace("a"), []string{"checkpoint", "before-refactor", "-m", "all green"}
			},
			converged: func(t *testing.T, m *machine) {
				tagged := m.git(m.stateRepo(), "for-each-ref", "--format=%(objectname)", "refs/tags/checkpoint/a/before-refactor")
				if tagged == "" || m.git(m.stateRepo(), "merge-base", "--is-ancestor", tagged, "agent-a") != "" {
					t.Errorf("checkpoint before-refactor not tagged on agent-a (tag %q)", tagged)
				}
			},
		},
		{
			point: failpoint.PromoteMerged,
			setup: func(t *testing.T, root string) (*machine, string, []string) {
				m := teamMachine(t, root)
				for _, s := range []string{"one", "two", "three"} {
					m.learn(m.app, "a", "promoted "+s)
				}
				return m, m.app, []string{"context", "promote", "--agent", "a", "--all"}
			},
			converged: func(t *testing.T, m *machine) {
				if n := m.count(m.stateRepo(), "global", "learnings"); n != 3 {
					t.Errorf("global holds %d learnings, want the 3 promoted", n)
				}
			},
		},
		{
			point: failpoint.GlobalWritten,
			setup: func(t *testing.T, root string) (*machine, string, []string) {
				m := teamMachine(t, root)
				return m, m.app, []string{"plan", "set", "ship the crash tests"}
			},
			converged: func(t *testing.T, m *machine) {
				if got := m.git(m.stateRepo(), "show", "global:plan.md"); got != "ship the crash tests" {
					t.Errorf("plan.md = %q", got)
				}
			},
		},
		{point: failpoint.PullFetched, setup: pull, converged: pullConverged, repos: withRemote},
		{point: failpoint.PullMerged, setup: pull, converged: pullConverged, repos: withRemote},
		{
			point: failpoint.PushSent,
			setup: func(t *testing.T, root string) (*machine, string, []string) {
				m := teamMachine(t, root)
				m.learn(m.app, "a", "to publish")
				m.planq(m.app, "context", "promote", "--agent", "a", "--all")
				return m, m.app, []string{"state", "push"}
			},
			converged: pushed, repos: withRemote,
		},
		{
			point: failpoint.PushAgentsPending,
			setup: func(t *testing.T, root string) (*machine, string, []string) {
				m := teamMachine(t, root)
				m.learn(m.app, "a", "agent's own")
				return m, m.app, []string{"state", "push", "--agents"}
			},
			converged: func(t *testing.T, m *machine) {
				pushed(t, m)
				if out := m.git(remoteOf(m), "for-each-ref", "refs/planq/agents/"); !strings.Contains(out, "/a") {
					t.Errorf("remote has no agent a after push --agents: %q", out)
				}
			},
			repos: withRemote,
		},
		{point: failpoint.GCArchived, setup: gcSetup, converged: gcConverged},
		{point: failpoint.GCMaintenancePending, setup: gcSetup, converged: gcConverged},
		{
			point: failpoint.RestoreFound,
			setup: func(t *testing.T, root string) (*machine, string, []string) {
				m, dir, args := gcSetup(t, root)
				m.planq(dir, args...)
				return m, m.app, []string{"state", "restore", "a"}
			},
			converged: func(t *testing.T, m *machine) {
				if n := m.count(m.stateRepo(), "agent-a", "learnings"); n != 1 {
					t.Errorf("restored agent-a holds %d learnings, want 1", n)
				}
			},
		},
		{
			point: failpoint.CreateBranched,
			setup: func(t *testing.T, root string) (*machine, string, []string) {
				m := teamMachine(t, root)
				return m, m.app, []string{"create", "b"}
			},
			converged: createConverged,
		},
		{
			point: failpoint.CreateWorkspaceAdded,
			setup: func(t *testing.T, root string) (*machine, string, []string) {
				m := teamMachine(t, root)
				return m, m.app, []string{"create", "b"}
			},
			converged: createConverged,
		},
		{point: failpoint.RemoveSaved, setup: remove, converged: removeConverged},
		{point: failpoint.RemoveUnmounted, setup: remove, converged: removeConverged},
	}
}

// TestCrashAtEveryFailpoint runs each multi-step write once per failpoint,
// killing it there as a crash would. After each crash git finds every
// repository sound, every record that existed is still on some ref, and
// the same command, run again, succeeds and reaches the state it would
// have reached without the crash.
func TestCrashAtEveryFailpoint(t *testing.T) {
	t.Parallel()
	cases := crashCases()
	covered := map[failpoint.Point]bool{}
	for _, c := range cases {
		covered[c.point] = true
	}
	for _, p := range failpoint.All() {
		if !covered[p] {
			t.Errorf("failpoint %s has no crash test", p)
		}
	}
	for _, c := range cases {
		t.Run(string(c.point), func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			m, dir, args := c.setup(t, root)
			repos := []string{m.stateRepo()}
			if c.repos != nil {
				repos = append(repos, c.repos(m)...)
			}
			before := map[string]bool{}
			for _, r := range repos {
				for p := range m.records(r) {
					before[p] = true
				}
			}

			m.crashAt(c.point, dir, args...)
			m.fsck(repos...)
			m.planq(dir, args...)
			m.fsck(repos...)

			after := map[string]bool{}
			for _, r := range repos {
				for p := range m.records(r) {
					after[p] = true
				}
			}
			for p := range before {
				if !after[p] {
					t.Errorf("record %s was lost", p)
				}
			}
			c.converged(t, m)
		})
	}
}

// TestPullLostRaceRetries moves global between pull's merge and its ref
// update, as a promote on the same machine would: the pull loses the race,
// merges again on top of the new global and drops nothing of either.
func TestPullLostRaceRetries(t *testing.T) {
	two := diverged(t, t.TempDir())
	two.learn(two.app, "b", "promoted while the pull merged")
	moved := ""
	unset := failpoint.Set(failpoint.PullMerged, func() {
		if moved == "" {
			two.planq(two.app, "context", "promote", "--agent", "b", "--all")
			moved = two.git(two.stateRepo(), "rev-parse", "global")
		}
	})
	defer unset()
	for _, kv := range two.env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	var stdout, stderr bytes.Buffer
	if code := Run(t.Context(), []string{"-C", two.app, "state", "pull", "--json"}, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("pull: exit %d\n%s", code, stderr.String())
	}
	if moved == "" {
		t.Fatal("the pull never reached the point between its merge and its ref update")
	}
	if !strings.Contains(stdout.String(), `"outcome": "merged"`) {
		t.Errorf("pull did not report a merge: %s", stdout.String())
	}
	// The merge is the newest one; the knowledge base's update may sit on it.
	if first, _, _ := strings.Cut(two.git(two.stateRepo(), "log", "--merges", "-1", "--format=%P", "global"), " "); first != moved {
		t.Errorf("the retried merge sits on %s, not on the global the promote made (%s)", first, moved)
	}
	if n := two.count(two.stateRepo(), "global", "learnings"); n != 4 {
		t.Errorf("global holds %d learnings, want 4: two pulled, one promoted before, one during the pull", n)
	}
	two.fsck(two.stateRepo())
}
