package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planq-dev/planq/internal/testkit/testgit"
)

// TestInterruptedPromoteSaysSoAndChangesNothing runs promote with a context
// that Ctrl-C has cancelled: planq says it was interrupted, in its words,
// exits 130, and global is as it was.
func TestInterruptedPromoteSaysSoAndChangesNothing(t *testing.T) {
	home := testgit.Isolate(t)
	dir := filepath.Join(t.TempDir(), "app")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	testgit.Run(t, dir, "init", "-q")
	testgit.Run(t, dir, "commit", "-q", "--allow-empty", "-m", "init")
	run := func(ctx context.Context, args ...string) (int, string) {
		var stdout, stderr bytes.Buffer
		code := Run(ctx, append([]string{"-C", dir}, args...), strings.NewReader(""), &stdout, &stderr)
		return code, stderr.String()
	}
	for _, args := range [][]string{
		{"init", "--project", "demo"}, {"create", "auth", "--here"},
		{"learn", "Tokens expire after 15 minutes", "--type", "pattern", "--domain", "auth"},
	} {
		if code, stderr := run(context.Background(), args...); code != 0 {
			t.Fatalf("planq %v: exit %d\n%s", args, code, stderr)
		}
	}
	state := filepath.Join(home, ".planq", "state-repos", "demo.git")
	before := testgit.Run(t, state, "rev-parse", "global")

	ctx, cancel := context.WithCancel(context.Background())
	cancel() // Ctrl-C, before promote could finish
	code, stderr := run(ctx, "context", "promote", "--all")
	if code != ExitInterrupted {
		t.Errorf("interrupted promote: exit %d, want %d\n%s", code, ExitInterrupted, stderr)
	}
	if !strings.Contains(stderr, "planq: interrupted;") || strings.Contains(stderr, "context canceled") {
		t.Errorf("interrupted promote should say so in planq's words, got:\n%s", stderr)
	}
	if after := testgit.Run(t, state, "rev-parse", "global"); after != before {
		t.Errorf("global moved from %s to %s under an interrupted promote", before, after)
	}
	if code, stderr := run(context.Background(), "context", "promote", "--all"); code != 0 {
		t.Fatalf("promote after the interruption: exit %d\n%s", code, stderr)
	}
}
