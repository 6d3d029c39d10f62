package mulch

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const goodLine = `{"type":"convention","classification":"tactical","recorded_at":"2026-11-25T00:56:46Z","content":"CONTENT","id":"mx-aa0001"}`

func line(content string) string { return strings.Replace(goodLine, "CONTENT", content, 1) + "\n" }

// TestReadRefusesBadLinesAndReadsTheRest: a line of invalid UTF-8 is
// refused (decoding it would store U+FFFD), a line longer than maxLine is
// reported and the lines after it are read; a file linked out of the mulch
// directory is refused whole, naming it, and the others are read.
func TestReadRefusesBadLinesAndReadsTheRest(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".mulch")
	if err := os.MkdirAll(filepath.Join(dir, "expertise"), 0o755); err != nil {
		t.Fatal(err)
	}
	data := line("first") + line("caf\xe9 au lait") + line(strings.Repeat("x", maxLine+10)) + line("after the long one")
	if err := os.WriteFile(filepath.Join(dir, "expertise", "ops.jsonl"), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "other.jsonl")
	if err := os.WriteFile(outside, []byte(line("another project's")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "expertise", "other.jsonl")); err != nil {
		t.Fatal(err)
	}
	src, err := Read(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(outside) // a temporary directory is behind a link on macOS
	if err != nil {
		t.Fatal(err)
	}
	var refused []string
	for _, r := range src.Refused {
		refused = append(refused, r.String())
	}
	want := []string{
		"expertise/ops.jsonl:2: not valid UTF-8",
		"expertise/ops.jsonl:3: longer than 256 KiB: not read",
		"expertise/other.jsonl: a symbolic link to " + real + ", outside " + dir + ": not read",
	}
	if !slices.Equal(refused, want) {
		t.Errorf("refused %q\nwant %q", refused, want)
	}
	var read []string
	for _, e := range src.Entries {
		read = append(read, e.Record.Content)
	}
	if !slices.Equal(read, []string{"first", "after the long one"}) {
		t.Errorf("read %q", read)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := Read(ctx, dir); !errors.Is(err, context.Canceled) {
		t.Errorf("read after the context's end: %v", err)
	}
}
