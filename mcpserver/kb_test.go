package mcpserver_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planq-dev/planq/internal/testkit/testgit"
)

// TestKnowledgeBaseToolCurateAndWrite: planq_kb's curate hands out the
// candidates with their sources; its write takes the agent's article,
// refuses one that breaks a rule with what to fix, and commits a good one
// to global as planq's.
func TestKnowledgeBaseToolCurateAndWrite(t *testing.T) {
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

	packet, isErr := callTool(t, s, "planq_kb", map[string]any{"action": "curate"})
	if isErr || !strings.Contains(packet, "### jwt-signing (uncurated)") || !strings.Contains(packet, "Cite every one of: "+d+", "+l) ||
		!strings.Contains(packet, `planq_kb {"action": "write"`) {
		t.Fatalf("planq_kb curate: %v\n%s", isErr, packet)
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
		{"a source that does not exist", map[string]any{"action": "write", "slug": "jwt-signing", "article": article(d+", "+l+", pq-00000000", "")}, "pq-00000000 is no learning or decision on global (hint: "},
		{"a consumed record uncited", map[string]any{"action": "write", "slug": "jwt-signing", "article": strings.Replace(article(d, ""), " keys rotate every 90 days ("+l+")", "", 1)}, "sources leave out " + l},
		{"an unknown topic", map[string]any{"action": "write", "slug": "jwt-signing", "article": strings.Replace(article(d+", "+l, ""), "topic: decisions", "topic: misc", 1)}, `topic "misc" is not one of`},
		{"a credential", map[string]any{"action": "write", "slug": "jwt-signing", "article": article(d+", "+l, "The key is AKIA2E0A8F3B244C9986.\n")}, "credential"},
		{"a bad slug", map[string]any{"action": "write", "slug": "../jwt", "article": article(d+", "+l, "")}, "holds '/'"},
	} {
		text, isErr := callTool(t, s, "planq_kb", c.args)
		if !isErr || !strings.Contains(text, c.want) {
			t.Errorf("%s: %v %s", c.name, isErr, text)
		}
	}
	if now := testgit.Run(t, state, "rev-parse", "global"); now != tip {
		t.Fatal("a refused write moved global")
	}
	write := map[string]any{"action": "write", "slug": "jwt-signing", "article": article(d+", "+l, "")}
	text, isErr := callTool(t, s, "planq_kb", write)
	if isErr || !strings.Contains(text, "updated knowledge/decisions/jwt-signing.md on global (curated_by mixed, commit ") ||
		!strings.Contains(text, `Next: planq_kb {"action": "curate"}`) {
		t.Fatalf("planq_kb write: %v %s", isErr, text)
	}
	if msg := testgit.Run(t, state, "log", "-1", "--format=%B", "global"); !strings.Contains(msg, "Planq-Knowledge: write") {
		t.Errorf("the commit: %s", msg)
	}
	if index := testgit.Run(t, state, "show", "global:knowledge/_index.md"); !strings.Contains(index, "[JWT signing](decisions/jwt-signing.md)") {
		t.Errorf("the index:\n%s", index)
	}
	text, isErr = callTool(t, s, "planq_kb", write)
	if isErr || !strings.Contains(text, "is as it was: nothing committed") {
		t.Errorf("the same article again: %v %s", isErr, text)
	}
	if packet, _ := callTool(t, s, "planq_kb", map[string]any{"action": "curate"}); strings.Contains(packet, "### jwt-signing") {
		t.Errorf("a curated article handed out again:\n%s", packet)
	}
}

// TestKnowledgeBaseToolReads: planq_kb lists the articles, shows one with
// its sources as global holds them, lists the disputed ones with both
// sides and the call that keeps each, and resolve settles one; a call
// without what its action needs is refused with what to send.
func TestKnowledgeBaseToolReads(t *testing.T) {
	dir := project(t)
	s := connect(t, "--project", dir)
	kb := func(args map[string]any) (string, bool) { return callTool(t, s, "planq_kb", args) }
	if text, isErr := kb(map[string]any{"action": "list"}); isErr || !strings.Contains(text, "No articles yet.") {
		t.Errorf("list of none: %v %s", isErr, text)
	}
	decide := func(decision, because string) string {
		text, isErr := callTool(t, s, "planq_decide", map[string]any{"decision": decision, "because": because, "subject": "database"})
		if isErr {
			t.Fatalf("planq_decide: %s", text)
		}
		if out, err := planqCmdIn(dir, "context", "promote", "--all").CombinedOutput(); err != nil {
			t.Fatalf("promote: %v\n%s", err, out)
		}
		return recordID.FindString(text)
	}
	pg := decide("Use PostgreSQL", "We know it well")
	text, isErr := kb(map[string]any{"action": "list"})
	if isErr || !strings.Contains(text, "## decisions\n- database: database (current, medium confidence): Use PostgreSQL") ||
		!strings.Contains(text, `Next: planq_kb {"action": "show", "slug": "database"}`) {
		t.Errorf("list: %v %s", isErr, text)
	}
	// A topic narrows the list, as 'planq kb list --topic' does.
	if text, isErr := kb(map[string]any{"action": "list", "topic": "conventions"}); isErr || !strings.HasPrefix(text, "No articles of topic conventions.") {
		t.Errorf("list of another topic: %v %s", isErr, text)
	}
	if text, isErr := kb(map[string]any{"action": "list", "topic": "decisions"}); isErr || !strings.Contains(text, "## decisions\n- database:") {
		t.Errorf("list of decisions: %v %s", isErr, text)
	}
	text, isErr = kb(map[string]any{"action": "show", "slug": "database"})
	if isErr || !strings.Contains(text, "database (knowledge/decisions/database.md)\nUse PostgreSQL\ntopic decisions; current, medium confidence; curated_by auto;") ||
		!strings.Contains(text, "Sources:\n- "+pg+" (current): Use PostgreSQL: We know it well\n") || !strings.Contains(text, "# Decision") {
		t.Errorf("show: %v %s", isErr, text)
	}
	if text, isErr := kb(map[string]any{"action": "disputed"}); isErr || text != "No article is disputed." {
		t.Errorf("disputed of none: %v %s", isErr, text)
	}

	sqlite := decide("Use SQLite", "One file to ship")
	text, isErr = kb(map[string]any{"action": "disputed"})
	if isErr || !strings.Contains(text, "database (knowledge/decisions/database.md)\nConflict:\n- Use PostgreSQL ("+pg+"; contradicts "+sqlite+")") ||
		!strings.Contains(text, "- "+sqlite+" (current): Use SQLite: One file to ship [disputed]") ||
		!strings.Contains(text, `planq_kb {"action": "resolve", "slug": "database", "keep": "`+sqlite+`"}`) {
		t.Errorf("disputed: %v %s", isErr, text)
	}
	text, isErr = kb(map[string]any{"action": "resolve", "slug": "database", "keep": sqlite})
	if isErr || !strings.Contains(text, "resolved knowledge/decisions/database.md: kept "+sqlite+" over "+pg+"; it is current (commit ") {
		t.Errorf("resolve: %v %s", isErr, text)
	}
	if text, isErr := kb(map[string]any{"action": "disputed"}); isErr || text != "No article is disputed." {
		t.Errorf("disputed after resolve: %v %s", isErr, text)
	}

	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"action": "show"}, "action show needs slug"},
		{map[string]any{"action": "resolve", "slug": "database"}, "action resolve needs keep"},
		{map[string]any{"action": "write"}, "action write needs article"},
		{map[string]any{"action": "show", "slug": "nothing-here"}, "article nothing-here: is not on global"},
		{map[string]any{"action": "show", "slug": "../x"}, "holds '/'"},
		{map[string]any{"action": "resolve", "slug": "database", "keep": sqlite}, "is current, not disputed"},
		{map[string]any{"action": "delete"}, "delete"},
	} {
		if text, isErr := kb(c.args); !isErr || !strings.Contains(text, c.want) {
			t.Errorf("%v: %v %s", c.args, isErr, text)
		}
	}
}

func planqCmdIn(dir string, args ...string) *exec.Cmd {
	cmd := planqCmd(args...)
	cmd.Dir = dir
	return cmd
}
