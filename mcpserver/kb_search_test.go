package mcpserver_test

import (
	"strings"
	"testing"
)

// TestSearchAndGetFindArticles: planq_search finds global's articles as
// it finds records (kinds takes article), and planq_get reads one.
func TestSearchAndGetFindArticles(t *testing.T) {
	dir := project(t)
	for _, args := range [][]string{
		{"decide", "Sign tokens with RS256", "--because", "Public keys can be shared.", "--subject", "jwt-signing"},
		{"learn", "Keys rotate every 90 days.", "--type", "pattern", "--domain", "auth", "--subject", "jwt-signing"},
		{"context", "promote", "--all"},
		{"kb", "update"},
	} {
		cmd := planqCmd(args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	s := connect(t, "--project", dir)
	text, isErr := callTool(t, s, "planq_search", map[string]any{"query": "keys rotate"})
	if isErr || !strings.Contains(text, "knowledge/decisions/jwt-signing.md:") || !strings.Contains(text, "article: jwt-signing") {
		t.Fatalf("planq_search: error=%v\n%s", isErr, text)
	}
	text, isErr = callTool(t, s, "planq_search", map[string]any{"query": "RS256", "kinds": []string{"article"}})
	if isErr || !strings.Contains(text, "1 record matches") || !strings.Contains(text, "knowledge/decisions/jwt-signing.md:") {
		t.Fatalf("planq_search kinds article: error=%v\n%s", isErr, text)
	}
	text, isErr = callTool(t, s, "planq_get", map[string]any{"path": "knowledge/decisions/jwt-signing.md"})
	if isErr || !strings.Contains(text, "type: article") || !strings.Contains(text, "Keys rotate every 90 days.") {
		t.Fatalf("planq_get: error=%v\n%s", isErr, text)
	}
}
