package search

import (
	"math/rand"
	"strings"
	"testing"
)

// naiveSnippetLine is Snippet's choice of line as it is defined: the first
// line holding most of the wanted terms, each line cut into Terms whole.
func naiveSnippetLine(lines []string, terms []string) (best, bestScore int) {
	want := map[string]bool{}
	for _, t := range terms {
		want[t] = true
	}
	best, bestScore = 0, -1
	for i, l := range lines {
		score := 0
		for _, t := range Terms(l) {
			if want[t] {
				score++
			}
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return best, bestScore
}

// TestSnippetChoosesTheLineItsDefinitionDoes: over random documents of
// repeated words, identifiers, stop words and mixed case, the line Snippet
// shows is the one counting every line's terms whole would choose. (Snippet
// counts each distinct word once, for the speed of long articles.)
func TestSnippetChoosesTheLineItsDefinitionDoes(t *testing.T) {
	vocab := []string{"token", "tokens", "Retry", "retries", "the", "and", "PgBouncer", "HTTPServer", "sha256",
		"internal/session", "--race", "ci-cache", "flaky", "Flaky", "test", "testing", "cache", "caches", "é", "日本", "a", "x1"}
	rng := rand.New(rand.NewSource(38))
	for round := range 500 {
		lines := make([]string, 1+rng.Intn(30))
		for i := range lines {
			words := make([]string, rng.Intn(12))
			for j := range words {
				words[j] = vocab[rng.Intn(len(vocab))]
			}
			lines[i] = strings.Join(words, []string{" ", ", ", ". ", " -- "}[rng.Intn(4)])
		}
		var terms []string
		for range 1 + rng.Intn(4) {
			terms = append(terms, Terms(vocab[rng.Intn(len(vocab))])...)
		}
		text := strings.Join(lines, "\n") + "\n"
		best, bestScore := naiveSnippetLine(lines, terms)
		from, to, _ := Snippet(text, terms, 10000)
		if bestScore == 0 {
			continue // found by meaning: the first body line, not the scoring
		}
		// The chosen line is in the snippet, which starts at it or the line
		// before it.
		if best+1 < from || best+1 > to || from < best {
			t.Fatalf("round %d: terms %q: Snippet gave lines %d-%d, but line %d scores best (%d)\n%s", round, terms, from, to, best+1, bestScore, text)
		}
	}
}

// BenchmarkSnippetOfALongArticle: the best lines of an article that
// gathers a hundred decisions (140 KB), as a search hit shows them.
func BenchmarkSnippetOfALongArticle(b *testing.B) {
	var article strings.Builder
	for i := range 1000 {
		article.WriteString("- Use RS256 for JWT signing in the auth service; keys rotate every 90 days (pq-" + strings.Repeat("a", 10) + "), decision " + strings.Repeat("x", i%7) + "\n")
		article.WriteString("  Because the gateway verifies tokens without the private key and HS256 would share it.\n")
	}
	text := article.String()
	terms := Terms("flaky ci cache retries")
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Snippet(text, terms, 700)
	}
}
