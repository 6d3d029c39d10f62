package hooks

import (
	"bytes"
	"testing"
)

func TestMarkdownBlockRoundTrip(t *testing.T) {
	for _, orig := range []string{"", "# Rules\n", "# Rules\n\nText.\n", "no newline at end"} {
		b := MarkdownBlock{Path: "AGENTS.md", Content: Snippet}
		out, err := b.Install([]byte(orig), orig != "")
		if err != nil {
			t.Fatal(err)
		}
		again, _ := b.Install(out, true)
		if !bytes.Equal(again, out) {
			t.Fatalf("installing twice changed %q", orig)
		}
		back, remove, err := b.Remove(out)
		if err != nil {
			t.Fatal(err)
		}
		want := orig
		if orig == "no newline at end" {
			want = orig + "\n" // the one byte planq cannot know it added
		}
		if orig == "" && !remove || orig != "" && string(back) != want {
			t.Fatalf("remove of %q gave %q (remove file: %v)", orig, back, remove)
		}
	}
}
