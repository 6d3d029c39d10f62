package table

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Tokens stands in for embed.Tokens, the tokenizer planq runs on a text
// before it looks its tokens up in the model, until that function lands;
// then prep calls embed.Tokens, so that the model is trained on exactly the
// tokens it is asked about. The rules are the same: lowercased words; an identifier, path or flag split into its parts
// (as search.Terms splits them) and also kept whole; no stemming; stop
// words kept; tokens of 1..40 bytes.
func Tokens(text string) []string {
	var out []string
	for _, word := range words(text) {
		parts := splitIdentifier(word)
		if len(parts) > 1 {
			if whole := strings.ToLower(strings.Join(parts, "")); len(whole) <= maxTokenLen {
				out = append(out, whole)
			}
		}
		for _, p := range parts {
			if t := strings.ToLower(p); t != "" && len(t) <= maxTokenLen {
				out = append(out, t)
			}
		}
	}
	return out
}

const maxTokenLen = 40

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

func splitIdentifier(word string) []string {
	var parts []string
	for _, chunk := range strings.FieldsFunc(word, isJoiner) {
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
