package readmodel

import (
	"regexp"
	"slices"
	"testing"
)

// FuzzIDsIn: the hand-made scan finds what the regular expression of a
// record ID finds, in the same order.
func FuzzIDsIn(f *testing.F) {
	re := regexp.MustCompile(`\bpq-[0-9a-f]{4,64}\b`)
	for _, s := range []string{"- Fact (pq-1a2b3c4d5e)", "pq-12", "xpq-1234 pq-abcd_ pq-abcdg pq-ABCD", "(pq-1234, pq-5678; contradicts pq-9abc)", "pq-pq-1234"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var got []string
		IDsIn(text, func(id string) { got = append(got, id) })
		if want := re.FindAllString(text, -1); !slices.Equal(got, want) {
			t.Fatalf("IDsIn(%q) = %q, want %q", text, got, want)
		}
	})
}
