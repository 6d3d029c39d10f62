package search

import (
	"strings"
	"unicode/utf8"
)

// Snippet picks the lines of text around its best-matching line (the one
// holding most of terms), at most max bytes, and says which lines they are
// (1-based, inclusive), so that a reader can ask for exactly those.
func Snippet(text string, terms []string, max int) (from, to int, snippet string) {
	want := make(map[string]bool, len(terms))
	for _, t := range terms {
		want[t] = true
	}
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	best, bestScore := 0, -1
	// A line's score is its terms that are wanted, counted word by word;
	// each distinct word is cut into terms once, for a long document (an
	// article gathering a hundred decisions) says the same words again and
	// again.
	wantedOf := map[string]int{}
	var buf []string
	for i, l := range lines {
		score := 0
		for _, w := range words(l) {
			n, ok := wantedOf[w]
			if !ok {
				buf = appendWordTerms(buf[:0], w)
				for _, t := range buf {
					if want[t] {
						n++
					}
				}
				wantedOf[w] = n
			}
			score += n
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	if bestScore == 0 {
		best = firstBodyLine(lines) // found by its meaning: what it says first
	}
	// The matching line and what follows it: the frontmatter above a
	// record's first line is no news to a reader of the result.
	lo, hi := best, min(len(lines)-1, best+4)
	if best > 0 && lines[best-1] != "---" && strings.TrimSpace(lines[best-1]) != "" {
		lo = best - 1
	}
	snippet = strings.Join(lines[lo:hi+1], "\n")
	for len(snippet) > max && hi > best {
		hi--
		snippet = strings.Join(lines[lo:hi+1], "\n")
	}
	for len(snippet) > max && lo < best {
		lo++
		snippet = strings.Join(lines[lo:hi+1], "\n")
	}
	if len(snippet) > max {
		snippet = cut(snippet, max-3) + "..."
	}
	return lo + 1, hi + 1, snippet
}

// firstBodyLine is the index of a record's first line of text: the first
// line not blank after its frontmatter, or after nothing when it has none.
func firstBodyLine(lines []string) int {
	start := 0
	if len(lines) > 0 && lines[0] == "---" {
		for i := 1; i < len(lines); i++ {
			if lines[i] == "---" {
				start = i + 1
				break
			}
		}
	}
	for i := start; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "" {
			return i
		}
	}
	return 0
}

// cut shortens s to at most n bytes without splitting a character.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
