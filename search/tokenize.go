package search

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
)

// Terms are the index terms of text: each word's stem, and for words made
// of parts (identifiers, paths, flags) the whole word too, lowercased.
// Stop words are dropped; a term is at most maxTermLen bytes.
func Terms(text string) []string {
	var out []string
	for _, word := range words(text) {
		out = appendWordTerms(out, word)
	}
	return out
}

// appendWordTerms appends the index terms of one word (see Terms) to out.
func appendWordTerms(out []string, word string) []string {
	parts := splitIdentifier(word)
	if len(parts) > 1 {
		whole := strings.ToLower(strings.Join(parts, ""))
		if len(whole) <= maxTermLen {
			out = append(out, whole)
		}
	}
	for _, p := range parts {
		if t := term(p); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// maxTermLen bounds a term: longer "words" are hashes or data, not words.
const maxTermLen = 40

// term is the index form of one word part: lowercased and stemmed, "" for
// a stop word or a part too long to be a word.
func term(part string) string {
	w := strings.ToLower(part)
	if len(w) > maxTermLen || len(w) < 2 && !isDigit(w) {
		return ""
	}
	if english.IsStopWord(w) {
		return ""
	}
	return stem(w)
}

// stems remembers the stem of each word met: records repeat their words,
// and stemming is most of what indexing a record costs. It is bounded so
// that a long-running server meeting endless new words stays small.
var stems = struct {
	sync.Mutex
	m map[string]string
}{m: map[string]string{}}

const maxStems = 1 << 18

func stem(w string) string {
	stems.Lock()
	s, ok := stems.m[w]
	stems.Unlock()
	if ok {
		return s
	}
	s = english.Stem(w, false)
	stems.Lock()
	if len(stems.m) < maxStems {
		stems.m[w] = s
	}
	stems.Unlock()
	return s
}

func isDigit(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return !unicode.IsDigit(r) }) < 0
}

// words splits text into runs of letters, digits and the characters that
// join an identifier's parts (_ - . /), trimmed of those joiners at both
// ends: "--race" is the word "race", "internal/session/" is
// "internal/session".
func words(text string) []string {
	if !utf8.ValidString(text) {
		text = strings.ToValidUTF8(text, " ")
	}
	var out []string
	for _, f := range strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !isJoiner(r)
	}) {
		if w := strings.TrimFunc(f, isJoiner); w != "" {
			out = append(out, w)
		}
	}
	return out
}

func isJoiner(r rune) bool { return r == '_' || r == '-' || r == '.' || r == '/' }

// splitIdentifier breaks a word at joiners, at lower-to-upper case changes
// (PgBouncer: Pg, Bouncer), before the last capital of a run of capitals
// followed by lower case (HTTPServer: HTTP, Server), and between letters
// and digits (sha256: sha, 256).
func splitIdentifier(word string) []string {
	var parts []string
	for _, chunk := range strings.FieldsFunc(word, isJoiner) {
		if plainLower(chunk) {
			parts = append(parts, chunk) // nothing to split: most words
			continue
		}
		rs := []rune(chunk)
		start := 0
		for i := 1; i < len(rs); i++ {
			prev, cur := rs[i-1], rs[i]
			split := unicode.IsLower(prev) && unicode.IsUpper(cur) ||
				unicode.IsLetter(prev) != unicode.IsLetter(cur) ||
				i+1 < len(rs) && unicode.IsUpper(prev) && unicode.IsUpper(cur) && unicode.IsLower(rs[i+1])
			if split {
				parts = append(parts, string(rs[start:i]))
				start = i
			}
		}
		parts = append(parts, string(rs[start:]))
	}
	return parts
}

// plainLower reports whether s is lowercase ASCII letters only.
func plainLower(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}
