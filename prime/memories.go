package prime

import (
	"fmt"

	"github.com/planq-dev/planq/internal/plural"
	"github.com/planq-dev/planq/readmodel"
)

// sectionMemories lists the files the memory tool keeps for the agent.
const sectionMemories = "Memories"

// MaxMemoryIndex is how many memory files the Memories section lists, in
// path order; the rest are counted, and the memory tool's view of
// /memories lists them all.
const MaxMemoryIndex = 20

// memoryItems adds the index of the agent's memory files (Input.Memories):
// what the memory tool wrote, one line each (path, size, first line), with
// the planq get that reads one, never their text. The index's intro is
// priority 2, as the knowledge base's index lines; its lines 3 and on, so
// that the first ones stay when the budget is short.
func memoryItems(doc *Document, mems []readmodel.Memory) {
	if len(mems) == 0 {
		return
	}
	add := func(priority int, text string) {
		doc.Items = append(doc.Items, Item{Section: sectionMemories, Priority: priority, Text: text})
	}
	intro := fmt.Sprintf("What you keep with the memory tool: %s in memories/ on your branch (/memories to the tool). Read one with planq get PATH; planq search WORDS finds them too.",
		plural.Of(len(mems), "file"))
	if more := len(mems) - MaxMemoryIndex; more > 0 {
		intro += fmt.Sprintf(" %s not listed: view /memories with the memory tool lists them all.", plural.Of(more, "more file"))
	}
	add(2, intro)
	for i, m := range mems[:min(len(mems), MaxMemoryIndex)] {
		add(3+i/5, memoryLine(m))
	}
}

// memoryLine is a memory file's line in an index: its path, its size, and
// its first line, or why search passes it over.
func memoryLine(m readmodel.Memory) string {
	line := fmt.Sprintf("%s (%s)", m.Path, sizeOf(m.Size))
	if m.Skipped != "" {
		return line + ", " + m.Skipped + ", not searched"
	}
	return line + ": " + readmodel.Shorten(m.Title, 100)
}

// sizeOf is a file's size as a listing shows it: 512 B, 1.5 KiB.
func sizeOf(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1024*1024))
}
