package prime

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/planq-dev/planq/readmodel"
)

// TestMemoriesAreAnIndex: the agent's memory files are listed (path, size,
// first line) with the planq get that reads one, never their text; a file
// that is not searched says so; past MaxMemoryIndex they are counted.
func TestMemoriesAreAnIndex(t *testing.T) {
	in := full()
	in.Memories = []readmodel.Memory{
		{Path: "memories/repo/build.md", Size: 1536, Title: "Building", Text: "# Building\nsecret-sauce words\n"},
		{Path: "memories/blob.bin", Size: 4, Title: "blob.bin", Skipped: "not text"},
	}
	doc := build(t, in, Options{Budget: 1 << 20})
	if !slices.Contains(sectionsOf(doc), sectionMemories) {
		t.Fatalf("no Memories section: %v", sectionsOf(doc))
	}
	for _, want := range []string{
		"What you keep with the memory tool: 2 files in memories/ on your branch (/memories to the tool). Read one with planq get PATH",
		"memories/repo/build.md (1.5 KiB): Building",
		"memories/blob.bin (4 B), not text, not searched",
	} {
		if !strings.Contains(doc.Text, want) {
			t.Errorf("document lacks %q:\n%s", want, doc.Text)
		}
	}
	if strings.Contains(doc.Text, "secret-sauce") {
		t.Error("the document shows a memory's text, not an index")
	}
	in.Memories = nil
	for i := range MaxMemoryIndex + 3 {
		in.Memories = append(in.Memories, readmodel.Memory{Path: fmt.Sprintf("memories/m%02d.md", i), Size: 10, Title: fmt.Sprintf("note %d", i)})
	}
	doc = build(t, in, Options{Budget: 1 << 20})
	if !strings.Contains(doc.Text, "3 more files not listed") || strings.Contains(doc.Text, "memories/m20.md") || !strings.Contains(doc.Text, "memories/m19.md") {
		t.Errorf("an index past its cap:\n%s", doc.Text)
	}
	// Within the budget: a short one drops the memory lines before the
	// focus, never the other way.
	small := build(t, in, Options{Budget: 1500})
	if len(small.Text) > 1500 || !strings.Contains(small.Text, "Token refresh on 401") {
		t.Errorf("budget 1500: %d characters\n%s", len(small.Text), small.Text)
	}
	// No memories, no section.
	in.Memories = nil
	if slices.Contains(sectionsOf(build(t, in, Options{Budget: 1 << 20})), sectionMemories) {
		t.Error("a Memories section with no memories")
	}
}
