// Package plural says how many of a thing there are, in words that agree
// with the count: "1 note", "3 notes", "1 raw note waits", "2 entries".
// Every message that counts says it through here, so none reads "1 notes".
//
// Role: a leaf. Front ends and writers import it, so it imports nothing of
// planq's; depguard's leaves rule in .golangci.yml keeps it so.
package plural

import (
	"strconv"
	"strings"
)

// Of says n of noun: "1 note", "0 notes", "3 raw notes", "2 entries".
func Of(n int, noun string) string { return strconv.Itoa(n) + " " + Noun(n, noun) }

// Noun is noun as n of it are said: itself for 1, else its plural. Only
// the last word changes ("raw note", "raw notes"), by English's regular
// rules: +es after s, x, z, ch and sh; y after a consonant becomes ies.
func Noun(n int, noun string) string {
	if n == 1 || n == -1 || noun == "" {
		return noun
	}
	switch last := noun[len(noun)-1]; {
	case strings.HasSuffix(noun, "ch") || strings.HasSuffix(noun, "sh") || last == 's' || last == 'x' || last == 'z':
		return noun + "es"
	case last == 'y' && len(noun) > 1 && !strings.ContainsRune("aeiou", rune(noun[len(noun)-2])):
		return noun[:len(noun)-1] + "ies"
	default:
		return noun + "s"
	}
}

// Pick is one for a count of 1 and many for any other: a verb that agrees
// with the count ("waits", "wait"), or an irregular noun.
func Pick(n int, one, many string) string {
	if n == 1 || n == -1 {
		return one
	}
	return many
}
