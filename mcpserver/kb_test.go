package mcpserver_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planq-dev/planq/internal/testkit/testgit"
)

// TestKnowledgeBaseToolsCurateAndWrite: planq_kb_curate hands out the
// candidates with their sources; planq_kb_write takes the agent's article,
// refuses one that breaks a rule with what to fix, and commits a good one
// to global as planq's.
func TestKnowledgeBaseToolsCurateAndWrite(t *testing.T) {
	dir := project(t)
	s := connect(t, "--project", dir)
	decided, isErr := callTool(t, s, "planq_decide", map[string]any{"decision": "Sign tokens with RS256", "because": "Public keys can be shared.", "subject": "jwt-signing"})
	if isErr {
		t.Fatalf("planq_decide: %s", decided)
	}
	d := recordID.FindString(decided)
	learned, isErr := callTool(t, s, "planq_learn", map[string]any{"insight": "Keys rotate every 90 days.", "type": "pattern", "domain": "auth", "subject": "jwt-signing"})
	if isErr {
		t.Fatalf("planq_learn: %s", learned)
	}
	l := recordID.FindString(learned)
	if out, err := planqCmdIn(dir, "context", "promote", "--all").CombinedOutput(); err != nil {
		t.Fatalf("promote: %v\n%s", err, out)
	}

	packet, isErr := callTool(t, s, "planq_kb_curate", map[string]any{})
	if isErr || !strings.Contains(packet, "### jwt-signing (uncurated)") || !strings.Contains(packet, "Cite every one of: "+d+", "+l) ||
		!strings.Contains(packet, "planq_kb_write") {
		t.Fatalf("planq_kb_curate: %v\n%s", isErr, packet)
	}
	article := func(sources, extra string) string {
		return "---\ntype: article\ntitle: JWT signing\ndescription: How tokens are signed.\ntopic: decisions\n" +
			"created: 2026-01-01T00:00:00Z\nupdated: 2026-01-01T00:00:00Z\ntimestamp: 2026-01-01T00:00:00Z\n" +
			"sources: [" + sources + "]\nconfidence: medium\nstatus: current\ncurated_by: auto\n---\n\n" +
			"# Decision\n\nTokens are signed with RS256 (" + d + "); keys rotate every 90 days (" + l + ").\n" + extra
	}
	state := filepath.Join(os.Getenv("PLANQ_HOME"), "state-repos", "demo.git")
	tip := testgit.Run(t, state, "rev-parse", "global")
	for _, c := range []struct {
		name string
		args map[string]any
		want string
	}{
		{"a source that does not exist", map[string]any{"slug": "jwt-signing", "article": article(d+", "+l+", pq-00000000", "")}, "pq-00000000 is no learning or decision on global (hint: "},
		{"a consumed record uncited", map[string]any{"slug": "jwt-signing", "article": strings.Replace(article(d, ""), " keys rotate every 90 days ("+l+")", "", 1)}, "sources leave out " + l},
		{"an unknown topic", map[string]any{"slug": "jwt-signing", "article": strings.Replace(article(d+", "+l, ""), "topic: decisions", "topic: misc", 1)}, `topic "misc" is not one of`},
		{"a credential", map[string]any{"slug": "jwt-signing", "article": article(d+", "+l, "The key is AKIA2E0A8F3B244C9986.\n")}, "credential"},
		{"a bad slug", map[string]any{"slug": "../jwt", "article": article(d+", "+l, "")}, "holds '/'"},
	} {
		text, isErr := callTool(t, s, "planq_kb_write", c.args)
		if !isErr || !strings.Contains(text, c.want) {
			t.Errorf("%s: %v %s", c.name, isErr, text)
		}
	}
	if now := testgit.Run(t, state, "rev-parse", "global"); now != tip {
		t.Fatal("a refused write moved global")
	}
	text, isErr := callTool(t, s, "planq_kb_write", map[string]any{"slug": "jwt-signing", "article": article(d+", "+l, "")})
	if isErr || !strings.Contains(text, "updated knowledge/decisions/jwt-signing.md on global (curated_by mixed, commit ") ||
		!strings.Contains(text, "Next: planq_kb_curate {}") {
		t.Fatalf("planq_kb_write: %v %s", isErr, text)
	}
	if msg := testgit.Run(t, state, "log", "-1", "--format=%B", "global"); !strings.Contains(msg, "Planq-Knowledge: write") {
		t.Errorf("the commit: %s", msg)
	}
	if index := testgit.Run(t, state, "show", "global:knowledge/_index.md"); !strings.Contains(index, "[JWT signing](decisions/jwt-signing.md)") {
		t.Errorf("the index:\n%s", index)
	}
	text, isErr = callTool(t, s, "planq_kb_write", map[string]any{"slug": "jwt-signing", "article": article(d+", "+l, "")})
	if isErr || !strings.Contains(text, "is as it was: nothing committed") {
		t.Errorf("the same article again: %v %s", isErr, text)
	}
	if packet, _ := callTool(t, s, "planq_kb_curate", map[string]any{}); strings.Contains(packet, "### jwt-signing") {
		t.Errorf("a curated article handed out again:\n%s", packet)
	}
}

func planqCmdIn(dir string, args ...string) *exec.Cmd {
	cmd := planqCmd(args...)
	cmd.Dir = dir
	return cmd
}
