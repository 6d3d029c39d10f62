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
