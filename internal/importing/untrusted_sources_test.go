package importing

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestATranscriptStopsWhenAsked: reading a transcript asks ctx as it goes,
// so that Ctrl-C stops a bootstrap in the middle of a file of a GiB (or of
// one line as long), not at its end.
func TestATranscriptStopsWhenAsked(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "sessions", "long.jsonl")
	write(t, file, strings.Repeat(`{"type":"user","message":{"role":"user","content":"hello"}}`+"\n", 1<<16))
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	var f Found
	if err := readTranscript(ctx, &f, dir, file, "transcript:claude/long.jsonl", claudeLine, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want the context's end", err)
	}
	if _, err := transcriptSource(ctx, Where{Code: dir, CodexDir: dir}); !errors.Is(err, context.Canceled) {
		t.Fatalf("the source: got %v", err)
	}
}
