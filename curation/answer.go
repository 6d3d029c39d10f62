package curation

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// proposalKeys are the fields of a proposal: an object in an answer with
// none of them is not the proposal.
var proposalKeys = []string{"proposed_files", "diff_summary", "entries_used", "entries_discarded"}

// maxNesting bounds how deep an object in an answer is looked into: a
// proposal nests two levels. It also bounds the work: an answer is read in
// at most about maxNesting passes, however many braces it opens.
const maxNesting = 16

// ErrNoJSON is ExtractJSON's answer for a text that holds no JSON object
// it looks for.
var ErrNoJSON = errors.New("holds no JSON object")

// SeveralError is ExtractJSON's answer for a text that holds more than one
// JSON object it looks for: it does not choose.
type SeveralError struct {
	// Lines are the lines (from 1) the objects start on.
	Lines []int
	what  string
}

func (e *SeveralError) Error() string {
	lines := make([]string, len(e.Lines))
	for i, l := range e.Lines {
		lines[i] = strconv.Itoa(l)
	}
	at := strings.Join(lines, ", ")
	if n := len(lines); n > 1 {
		at = strings.Join(lines[:n-1], ", ") + " and " + lines[n-1]
	}
	return fmt.Sprintf("holds %d JSON objects that could be %s (at lines %s)", len(e.Lines), e.what, at)
}

// ExtractJSON finds the one JSON object a model's answer holds: the whole
// text when it is one JSON value (bare JSON, as planq asks for), else the
// object among the text's sentences or in one of its fenced code blocks
// that has at least one of keys at its top level (with no keys, any
// object). The same object given twice (in a sentence and again in a
// fence) is one. None is ErrNoJSON (wrapped, naming keys, when the text
// holds objects without them); more than one
// is a *SeveralError: ExtractJSON never guesses between them.
func ExtractJSON(text string, keys ...string) (string, error) {
	trimmed := strings.TrimSpace(strings.TrimPrefix(text, "\ufeff"))
	if json.Valid([]byte(trimmed)) {
		return trimmed, nil
	}
	var found []int
	var seen [][]byte
	all := objects(text)
	for _, s := range all {
		obj := text[s[0]:s[1]]
		if !hasKey(obj, keys) {
			continue
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, []byte(obj)); err != nil {
			continue // cannot be: objects gives valid JSON
		}
		dup := false
		for _, prev := range seen {
			dup = dup || bytes.Equal(prev, buf.Bytes())
		}
		if !dup {
			seen = append(seen, buf.Bytes())
			found = append(found, s[0], s[1])
		}
	}
	switch len(found) {
	case 2:
		return text[found[0]:found[1]], nil
	case 0:
		if len(all) == 0 {
			return "", ErrNoJSON
		}
		return "", fmt.Errorf("%w with %s", ErrNoJSON, orList(keys))
	}
	e := &SeveralError{what: "the answer"}
	if len(keys) > 0 {
		e.what = "the proposal"
	}
	for i := 0; i < len(found); i += 2 {
		e.Lines = append(e.Lines, 1+strings.Count(text[:found[i]], "\n"))
	}
	return "", e
}

// objects finds the JSON objects text holds outside other objects, each
// as [start, end): a '{' whose bracket closes (strings read as JSON reads
// them) on a span that is valid JSON. A span that is not valid JSON is
// looked into for objects within it.
func objects(text string) [][2]int {
	var out [][2]int
	for i := 0; i < len(text); {
		j := strings.IndexByte(text[i:], '{')
		if j < 0 {
			break
		}
		start := i + j
		if end, ok := balanced(text, start); ok && json.Valid([]byte(text[start:end])) {
			out = append(out, [2]int{start, end})
			i = end
			continue
		}
		i = start + 1
	}
	return out
}

// balanced finds where the bracket that opens at text[start] closes: the
// index after it, reading strings as JSON reads them. It fails on a
// bracket closed by the other kind, a string broken by a line's end (a
// JSON string holds none: this is prose), nesting past maxNesting, and
// the text's end.
func balanced(text string, start int) (int, bool) {
	var open [maxNesting]byte
	depth := 0
	inString := false
	for i := start; i < len(text); i++ {
		c := text[i]
		if inString {
			switch {
			case c == '\\':
				i++
			case c == '"':
				inString = false
			case c < 0x20:
				return 0, false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			if depth == maxNesting {
				return 0, false
			}
			open[depth] = c
			depth++
		case '}', ']':
			if depth == 0 || (c == '}') != (open[depth-1] == '{') {
				return 0, false
			}
			depth--
			if depth == 0 {
				return i + 1, true
			}
		}
	}
	return 0, false
}

// hasKey reports whether obj, a JSON object, has one of keys at its top
// level; with no keys, any object does.
func hasKey(obj string, keys []string) bool {
	if len(keys) == 0 {
		return true
	}
	maybe := false
	for _, k := range keys {
		maybe = maybe || strings.Contains(obj, k)
	}
	if !maybe {
		return false // most objects in prose: no need to decode them
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal([]byte(obj), &fields); err != nil {
		return false
	}
	for _, k := range keys {
		if _, ok := fields[k]; ok {
			return true
		}
	}
	return false
}

// orList joins words as "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
