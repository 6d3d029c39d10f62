package knowledge

import (
	"slices"
	"strings"

	"github.com/aymanbagabas/go-udiff/lcs"
)

// Markers of a place where a person's edit and global's change clash, in
// the text a stale edit hands back. Edit refuses a text that still holds
// them: no conflict marker ever lands in an article.
const (
	markerYours  = "<<<<<<< your edit"
	markerSplit  = "======="
	markerGlobal = ">>>>>>> global"
)

// merge3 merges, line by line, two texts edited from base: mine (a
// person's edit) and theirs (what global holds now). A change on one side
// is taken; the same change on both sides is taken once; changes that
// touch the same lines differently are both kept, mine first, between
// conflict markers, and counted. No line of either side is lost.
func merge3(base, mine, theirs []byte) ([]byte, int) {
	a, m, t := splitKeep(string(base)), splitKeep(string(mine)), splitKeep(string(theirs))
	dm, dt := lcs.DiffLines(a, m), lcs.DiffLines(a, t)
	var out strings.Builder
	conflicts := 0
	at := 0 // the next line of base to copy
	for len(dm) > 0 || len(dt) > 0 {
		start := nextStart(dm, dt)
		end := start
		var hm, ht []lcs.Diff
		// A chunk gathers every hunk of either side that overlaps it, or
		// inserts where it starts: those are the changes to weigh together.
		for grew := true; grew; {
			n := len(hm) + len(ht)
			hm, dm, end = overlapping(hm, dm, start, end)
			ht, dt, end = overlapping(ht, dt, start, end)
			grew = len(hm)+len(ht) > n
		}
		writeLines(&out, a[at:start])
		yours, global := side(a, m, hm, start, end), side(a, t, ht, start, end)
		switch {
		case len(ht) == 0:
			writeLines(&out, yours)
		case len(hm) == 0, slices.Equal(yours, global):
			writeLines(&out, global)
		default:
			conflicts++
			writeConflict(&out, yours, global)
		}
		at = end
	}
	writeLines(&out, a[at:])
	return []byte(out.String()), conflicts
}

// overlapping moves d's hunks that overlap start..end, or insert at start,
// to taken, widening end.
func overlapping(taken, d []lcs.Diff, start, end int) ([]lcs.Diff, []lcs.Diff, int) {
	for len(d) > 0 && (d[0].Start < end || d[0].Start == start) {
		end = max(end, d[0].End)
		taken, d = append(taken, d[0]), d[1:]
	}
	return taken, d, end
}

// writeConflict: lines both sides begin or end the place with are no clash.
func writeConflict(out *strings.Builder, yours, global []string) {
	head := 0
	for head < min(len(yours), len(global)) && yours[head] == global[head] {
		head++
	}
	tail := 0
	for tail < min(len(yours), len(global))-head && yours[len(yours)-1-tail] == global[len(global)-1-tail] {
		tail++
	}
	writeLines(out, yours[:head])
	out.WriteString(markerYours + "\n")
	writeLines(out, yours[head:len(yours)-tail])
	endLine(out)
	out.WriteString(markerSplit + "\n")
	writeLines(out, global[head:len(global)-tail])
	endLine(out)
	out.WriteString(markerGlobal + "\n")
	writeLines(out, yours[len(yours)-tail:])
}

// nextStart is where the first hunk of either side starts.
func nextStart(dm, dt []lcs.Diff) int {
	switch {
	case len(dm) == 0:
		return dt[0].Start
	case len(dt) == 0:
		return dm[0].Start
	}
	return min(dm[0].Start, dt[0].Start)
}

// side is base's lines start to end as one side's hunks (all within
// them) leave them.
func side(base, lines []string, hunks []lcs.Diff, start, end int) []string {
	var out []string
	at := start
	for _, h := range hunks {
		out = append(out, base[at:h.Start]...)
		out = append(out, lines[h.ReplStart:h.ReplEnd]...)
		at = h.End
	}
	return append(out, base[at:end]...)
}

// splitKeep splits s into lines that keep their "\n" (the last may have
// none).
func splitKeep(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func writeLines(b *strings.Builder, lines []string) {
	for _, l := range lines {
		b.WriteString(l)
	}
}

// endLine ends the text written so far with a newline, so a marker
// starts a line of its own.
func endLine(b *strings.Builder) {
	if s := b.String(); s != "" && !strings.HasSuffix(s, "\n") {
		b.WriteString("\n")
	}
}
