package readmodel

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// A stale mark is one short clause however many files moved on: the first
// one and how many more. The list is StaleList's (show and get print it).
func TestStaleMark(t *testing.T) {
	changed := func(path string) string { return changedNote(path, "2026-11-02") }
	twenty := make([]string, 20)
	for i := range twenty {
		twenty[i] = changed(fmt.Sprintf("cli/file%02d.go", i))
	}
	for _, tc := range []struct {
		name  string
		notes []string
		want  string
	}{
		{"none", nil, ""},
		{"one changed", []string{changed("cli/root.go")}, "(may be stale: cli/root.go changed since 2026-11-02)"},
		{"one deleted", []string{deletedNote("cli/old.go")}, "(may be stale: cli/old.go deleted)"},
		{"two changed", []string{changed("cli/root.go"), changed("cli/show.go")}, "(may be stale: cli/root.go and 1 more file changed since 2026-11-02)"},
		{"twenty changed", twenty, "(may be stale: cli/file00.go and 19 more files changed since 2026-11-02)"},
		{"all deleted", []string{deletedNote("a.go"), deletedNote("b.go"), deletedNote("c.go")}, "(may be stale: a.go and 2 more files deleted)"},
		{"mixed", []string{deletedNote("a.go"), changed("b.go")}, "(may be stale: a.go and 1 more file changed or deleted since 2026-11-02)"},
		{"a note of another form", []string{"something else", changed("b.go")}, "(may be stale: something else, and 1 more file)"},
	} {
		st := Staleness{Notes: map[string][]string{"pq-1": tc.notes}}
		if got := st.Mark("pq-1"); got != tc.want {
			t.Errorf("%s: Mark = %q, want %q", tc.name, got, tc.want)
		}
	}
	// The full list is for show and get.
	if got, want := StaleList([]string{changed("a.go"), deletedNote("b.go")}), "(may be stale: a.go changed since 2026-11-02; b.go deleted)"; got != want {
		t.Errorf("StaleList = %q, want %q", got, want)
	}
	if got := StaleList(nil); got != "" {
		t.Errorf("StaleList(nil) = %q", got)
	}
	// The mark of twenty files is no longer than the list of one.
	if mark, one := (Staleness{Notes: map[string][]string{"x": twenty}}).Mark("x"), StaleList(twenty[:1]); len(mark) > len(one)+30 {
		t.Errorf("mark of twenty files is %d characters, the list of one %d: %s", len(mark), len(one), mark)
	}
}

// FuzzStaleMark: whatever the notes say, the mark names the first file,
// counts the rest, holds no line break the notes did not, and never grows
// with their number.
func FuzzStaleMark(f *testing.F) {
	f.Add("cli/root.go changed since 2026-11-02", "a.go deleted", 3)
	f.Add("a b changed since  deleted", " changed since ", 1)
	f.Add("", "", 0)
	f.Fuzz(func(t *testing.T, first, other string, more int) {
		more = min(max(more, 0), 50)
		notes := []string{first}
		for range more {
			notes = append(notes, other)
		}
		mark := Staleness{Notes: map[string][]string{"x": notes}}.Mark("x")
		if !strings.HasPrefix(mark, "(may be stale: ") || !strings.HasSuffix(mark, ")") {
			t.Fatalf("mark %q", mark)
		}
		path, _ := splitNote(first)
		if !strings.Contains(mark, path) {
			t.Fatalf("mark %q does not name %q", mark, path)
		}
		if more > 0 && !strings.Contains(mark, fmt.Sprintf(" and %d more file", more)) {
			t.Fatalf("mark %q does not count %d more", mark, more)
		}
		if strings.Count(mark, "\n") > strings.Count(first, "\n")+strings.Count(other, "\n") {
			t.Fatalf("mark %q breaks lines", mark)
		}
		if utf8.RuneCountInString(mark) > utf8.RuneCountInString(first)+utf8.RuneCountInString(other)+80 {
			t.Fatalf("mark %q grows with the notes", mark)
		}
	})
}
