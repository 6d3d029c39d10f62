package mcpserver_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/planq-dev/planq/internal/testkit/testgit"
)

// recordedAt is the ID and path a write tool's answer names.
var recordedAt = regexp.MustCompile(`recorded learning (pq-[0-9a-f]+) at (\S+) `)

// TestLearnTakesWhatTheCommandLineTakes drives planq_learn with every
// field 'planq learn' has: evidence (commit, issue, files), anchors,
// supersedes, subject, and scope user, which writes to the user layer
// (under $PLANQ_HOME) and refuses the code of a project there.
func TestLearnTakesWhatTheCommandLineTakes(t *testing.T) {
	dir := project(t)
	if err := os.WriteFile(filepath.Join(dir, "jwt.go"), []byte("package auth\n\nconst ttl = 15\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	testgit.Run(t, dir, "add", "jwt.go")
	testgit.Run(t, dir, "commit", "-q", "-m", "jwt")
	head := strings.TrimSpace(testgit.Run(t, dir, "rev-parse", "HEAD"))
	s := connect(t, "--project", dir)
	learn := func(args map[string]any) (id, path string) {
		t.Helper()
		text, isErr := callTool(t, s, "planq_learn", args)
		m := recordedAt.FindStringSubmatch(text)
		if isErr || m == nil {
			t.Fatalf("planq_learn %v: (error %t) %s", args, isErr, text)
		}
		return m[1], m[2]
	}

	first, _ := learn(map[string]any{"insight": "Tokens expire after 10 minutes", "type": "pattern", "domain": "auth"})
	_, path := learn(map[string]any{"insight": "Tokens expire after 15 minutes", "type": "pattern", "domain": "auth",
		"evidence_commit": head, "evidence_issue": "https://example.com/issues/7", "evidence_files": []string{"jwt.go"},
		"files": []string{"jwt.go:3-3"}, "supersedes": first, "subject": "token-ttl", "scope": "project"})
	data, err := os.ReadFile(filepath.Join(dir, ".planq", "agent", path))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"supersedes: " + first, "subject: token-ttl", "commit: " + head, "issue: https://example.com/issues/7", "jwt.go"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the learning lacks %q:\n%s", want, data)
		}
	}

	userRepo := filepath.Join(os.Getenv("PLANQ_HOME"), "state-repos", "_user.git")
	mine, _ := learn(map[string]any{"insight": "Prefers table-driven tests", "type": "convention", "domain": "preferences", "scope": "user"})
	_, path = learn(map[string]any{"insight": "Prefers table-driven tests, one case a line", "type": "convention", "domain": "preferences",
		"scope": "user", "supersedes": mine, "evidence_issue": "https://example.com/issues/1"})
	shown := testgit.Run(t, userRepo, "show", "global:"+path)
	for _, want := range []string{"supersedes: " + mine, "issue: https://example.com/issues/1", "agent: user"} {
		if !strings.Contains(shown, want) {
			t.Errorf("the user layer's learning lacks %q:\n%s", want, shown)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".planq", "agent", path)); err == nil {
		t.Errorf("the user layer's learning landed on the agent's branch too: %s", path)
	}

	// The user layer has no code: what names a project's is refused, and
	// nothing lands.
	commits := strings.TrimSpace(testgit.Run(t, userRepo, "rev-list", "--count", "global"))
	for _, args := range []map[string]any{
		{"insight": "x", "type": "pattern", "domain": "a", "scope": "user", "evidence_files": []string{"jwt.go"}},
		{"insight": "x", "type": "pattern", "domain": "a", "scope": "user", "allow_secret": true},
		{"insight": "x", "type": "pattern", "domain": "a", "scope": "team"},
	} {
		if text, isErr := callTool(t, s, "planq_learn", args); !isErr {
			t.Errorf("planq_learn %v: accepted: %s", args, text)
		}
	}
	if got := strings.TrimSpace(testgit.Run(t, userRepo, "rev-list", "--count", "global")); got != commits {
		t.Errorf("a refused learning committed: %s commits, was %s", got, commits)
	}
}

// TestCorrectionsReachTheUserLayer: planq_edit, planq_revalidate and
// planq_retract take scope user as the CLI's --scope user, acting on the
// user layer's record, never the project's; planq_kb curate takes limit.
func TestCorrectionsReachTheUserLayer(t *testing.T) {
	dir := project(t)
	s := connect(t, "--project", dir)
	userRepo := filepath.Join(os.Getenv("PLANQ_HOME"), "state-repos", "_user.git")
	text, isErr := callTool(t, s, "planq_learn", map[string]any{"insight": "Prefers small commits", "type": "convention", "domain": "preferences", "scope": "user"})
	m := recordedAt.FindStringSubmatch(text)
	if isErr || m == nil {
		t.Fatalf("planq_learn scope user: %s", text)
	}
	id := m[1]
	if text, isErr := callTool(t, s, "planq_edit", map[string]any{"id": id, "text": "Prefers small, reviewed commits", "scope": "user"}); isErr {
		t.Fatalf("planq_edit scope user: %s", text)
	}
	if text, isErr := callTool(t, s, "planq_edit", map[string]any{"id": id, "text": "elsewhere"}); !isErr {
		t.Errorf("planq_edit of the user layer's record without scope found it in the project: %s", text)
	}
	listed := testgit.Run(t, userRepo, "grep", "-l", "Prefers small, reviewed commits", "global")
	if !strings.Contains(listed, "learnings/") {
		t.Fatalf("the edit did not land on the user layer: %q", listed)
	}
	text, isErr = callTool(t, s, "planq_search", map[string]any{"query": "small reviewed commits", "scope": "user"})
	m = regexp.MustCompile(`pq-[0-9a-f]{10}`).FindStringSubmatch(text)
	if isErr || m == nil {
		t.Fatalf("planq_search scope user: %s", text)
	}
	current := m[0]
	if text, isErr := callTool(t, s, "planq_retract", map[string]any{"id": current, "reason": "changed my mind", "scope": "user"}); isErr {
		t.Fatalf("planq_retract scope user: %s", text)
	}
	if shown := testgit.Run(t, userRepo, "log", "-1", "--format=%s", "global"); !strings.Contains(shown, "retract") {
		t.Errorf("the user layer's last commit is %q, not the retraction", shown)
	}
	if text, isErr := callTool(t, s, "planq_revalidate", map[string]any{"id": "pq-0000000000", "scope": "user"}); !isErr || !strings.Contains(text, "pq-0000000000") {
		t.Errorf("planq_revalidate of no record of the user layer: (error %t) %s", isErr, text)
	}
	if text, isErr := callTool(t, s, "planq_kb", map[string]any{"action": "curate", "limit": -1}); !isErr {
		t.Errorf("planq_kb curate with limit -1 was not refused: %s", text)
	}
}
