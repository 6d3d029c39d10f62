package mcpserver_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/planq-dev/planq/internal/testkit/testgit"
)

// ringLearning is a learning committed by plain git that supersedes other.
func ringLearning(id, other, day, text string) string {
	return "---\nid: " + id + "\nkind: learning\ntype: guide\ntimestamp: 2026-01-0" + day + "T10:00:00Z\nagent: a\nsupersedes: " + other +
		"\ndomain: ring\nclassification: foundational\n---\n" + text + "\n"
}

// Issue 36: planq_edit of a version of a ring (two learnings that
// supersede each other) spun at full CPU forever; it is a tool error that
// names the ring and how to break it, and serving goes on.
func TestRingEditIsAToolError(t *testing.T) {
	dir := project(t)
	shard := filepath.Join(dir, ".planq", "agent", "learnings", "ring")
	if err := os.MkdirAll(shard, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"pq-00000000a1.md": ringLearning("pq-00000000a1", "pq-00000000b2", "1", "the older version"),
		"pq-00000000b2.md": ringLearning("pq-00000000b2", "pq-00000000a1", "2", "the newer version"),
	} {
		if err := os.WriteFile(filepath.Join(shard, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	agentDir := filepath.Join(dir, ".planq", "agent")
	testgit.Run(t, agentDir, "add", "learnings/ring")
	testgit.Run(t, agentDir, "commit", "-q", "-m", "a ring, by hand")

	s := connect(t, "--project", dir)
	for _, id := range []string{"pq-00000000a1", "pq-00000000b2"} {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "planq_edit", Arguments: map[string]any{"id": id, "text": "x"}})
		cancel()
		if err != nil {
			t.Fatalf("planq_edit %s: %v", id, err)
		}
		var text strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				text.WriteString(tc.Text)
			}
		}
		if !res.IsError || !strings.Contains(text.String(), "versions supersede each other in a ring: pq-00000000a1 -> pq-00000000b2 -> pq-00000000a1") ||
			!strings.Contains(text.String(), "planq validate --fix") {
			t.Errorf("planq_edit %s: error=%v\n%s", id, res.IsError, text.String())
		}
	}
	if text, isErr := callTool(t, s, "planq_query", map[string]any{"domains": []string{"ring"}}); isErr || !strings.Contains(text, "the newer version") {
		t.Errorf("serving after the ring: %v %s", isErr, text)
	}
}
