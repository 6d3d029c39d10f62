package changelog

import (
	"strings"
	"unicode"
)

// IsReportField says whether line is a "Key: value" field as programs
// write them into a record's first lines (an automated recorder's
// "Agent: coordinator"): a key of one to three words of letters, digits,
// '_', '-' or '.', starting with a letter and at most 40 bytes, then ": "
// and a value. Prime shows such a record by its fields rather than by a
// title that says nothing, and promote never takes two of them for one
// subject.
func IsReportField(line string) bool {
	key, value, ok := strings.Cut(line, ": ")
	if !ok || strings.TrimSpace(value) == "" || key == "" || len(strings.Fields(key)) > 3 || len(key) > 40 {
		return false
	}
	for i, c := range key {
		switch {
		case unicode.IsLetter(c):
		case i == 0:
			return false
		case unicode.IsDigit(c) || c == ' ' || c == '_' || c == '-' || c == '.':
		default:
			return false
		}
	}
	return true
}
