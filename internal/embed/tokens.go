package embed

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxTokenLen bounds a token in bytes: longer "words" are hashes or data,
// not words.
const MaxTokenLen = 40

// Tokens cuts text into the tokens a Table knows: lowercased words, and for
// words made of parts (identifiers, paths, flags: advisory_lock, PgBouncer,
// --dry-run, internal/session/, sha256) the whole word with its joiners
// dropped first, then each part. Nothing is stemmed and no stop word is
// dropped (a table's weights quiet frequent words); a token is 1 to
// MaxTokenLen bytes of letters and digits.
//
// It is the one tokenizer of planq's tables: the text a table is trained
// on is cut by this very function, so a table knows the tokens a text is
// cut into at run time. Every token t it returns comes back first from
// Tokens(t), so a trained vocabulary can be checked against it.
func Tokens(text string) []string {
	return appendTokens(nil, text)
}

// appendTokens appends text's tokens to dst.
func appendTokens(dst []string, text string) []string {
	if !utf8.ValidString(text) {
		text = strings.ToValidUTF8(text, " ")
	}
	start := -1
	for i, r := range text {
		if isWordRune(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			dst = appendWord(dst, text[start:i])
			start = -1
		}
	}
	if start >= 0 {
		dst = appendWord(dst, text[start:])
	}
	return dst
}

// isWordRune reports whether r belongs to a word: a letter, a digit, or a
// character that joins an identifier's parts (_ - . /).
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || isJoiner(r)
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isJoiner(r rune) bool { return r == '_' || r == '-' || r == '.' || r == '/' }

// appendWord appends the tokens of one word: "--race" is the word "race",
// "internal/session/" the word "internal/session".
func appendWord(dst []string, word string) []string {
	word = strings.TrimFunc(word, isJoiner)
	if word == "" {
		return dst
	}
	if plainLower(word) { // nothing to split or lower: most words
		if len(word) <= MaxTokenLen {
			dst = append(dst, word)
		}
		return dst
	}
	var parts [8]string
	ps := splitIdentifier(parts[:0], word)
	if len(ps) > 1 {
		var whole strings.Builder
		for _, p := range ps {
			whole.WriteString(p)
		}
		if w := strings.ToLower(whole.String()); len(w) <= MaxTokenLen {
			dst = append(dst, w)
		}
	}
	for _, p := range ps {
		if t := strings.ToLower(p); len(t) <= MaxTokenLen {
			dst = append(dst, t)
		}
	}
	return dst
}

// splitIdentifier appends word's parts to dst: it breaks at joiners, at
// lower-to-upper case changes (PgBouncer: Pg, Bouncer), before the last
// capital of a run of capitals followed by lower case (HTTPServer: HTTP,
// Server), and between letters and digits (sha256: sha, 256). Parts are
// never empty.
func splitIdentifier(dst []string, word string) []string {
	for chunk := range strings.FieldsFuncSeq(word, isJoiner) {
		if plainLower(chunk) {
			dst = append(dst, chunk)
			continue
		}
		start := 0
		prev, size := utf8.DecodeRuneInString(chunk)
		for i := size; i < len(chunk); {
			cur, n := utf8.DecodeRuneInString(chunk[i:])
			split := unicode.IsLower(prev) && unicode.IsUpper(cur) ||
				unicode.IsLetter(prev) != unicode.IsLetter(cur)
			if !split && unicode.IsUpper(prev) && unicode.IsUpper(cur) && i+n < len(chunk) {
				next, _ := utf8.DecodeRuneInString(chunk[i+n:])
				split = unicode.IsLower(next)
			}
			if split {
				dst = append(dst, chunk[start:i])
				start = i
			}
			prev = cur
			i += n
		}
		dst = append(dst, chunk[start:])
	}
	return dst
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
