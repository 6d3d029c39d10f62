package changelog

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// fuzzWidth is the width FuzzGist holds a gist to.
const fuzzWidth = 140

// A sentence ends at '.', '!' or '?' before a space or the end, never at
// an abbreviation's period or one inside parentheses.
func TestFirstSentence(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"Packagers (e.g. Homebrew) ship it. Then more.", "Packagers (e.g. Homebrew) ship it."},
		{"Use gofmt, i.e. the standard style. Then vet.", "Use gofmt, i.e. the standard style."},
		{"Logs, traces etc. go to stdout. Metrics do not.", "Logs, traces etc. go to stdout."},
		{"Tabs vs. spaces is settled. Tabs.", "Tabs vs. spaces is settled."},
		{"It takes approx. five seconds. Often less.", "It takes approx. five seconds."},
		{"Mr. Smith and Dr. Jones own it. Ask them.", "Mr. Smith and Dr. Jones own it."},
		{"The runner, a.k.a. the worker, retries. Once.", "The runner, a.k.a. the worker, retries."},
		{"Locks expire (see lock.go. It sets a TTL) quickly. Then retry.", "Locks expire (see lock.go. It sets a TTL) quickly."},
		{"Read it (cf. the ADR). Then act.", "Read it (cf. the ADR)."},
		{"Types live in src/registry/. Each is a row.", "Types live in src/registry/."},
		{"Done! Next.", "Done!"},
		{"No end here", "No end here"},
	} {
		if got := FirstSentence(tc.text); got != tc.want {
			t.Errorf("FirstSentence(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

// FuzzGist: what a line adds after a title is one line, never wider than
// fuzzWidth, and made of the body's own words.
func FuzzGist(f *testing.F) {
	f.Add("recipe-x", "\n\nExport is strict. More.")
	f.Add("Agent: coordinator", "Capability: x\nFailure reason: y")
	f.Add("Steps:", "\n\n")
	f.Add("a", "e.g. b. c")
	f.Fuzz(func(t *testing.T, title, rest string) {
		if strings.Contains(title, "\n") || !utf8.ValidString(title) || !utf8.ValidString(rest) {
			t.Skip()
		}
		g := gist(title, rest, fuzzWidth)
		if strings.ContainsAny(g, "\r\n") {
			t.Fatalf("gist %q breaks the line", g)
		}
		if n := utf8.RuneCountInString(g); n > fuzzWidth+2 {
			t.Fatalf("gist %q is %d characters", g, n)
		}
		body := strings.Join(strings.Fields(rest), " ")
		for _, w := range strings.Fields(strings.NewReplacer(";", " ", "…", " ").Replace(g)) {
			if w != ":" && !strings.Contains(body, strings.TrimSuffix(w, ";")) {
				t.Fatalf("gist %q says %q, which the body %q does not", g, w, rest)
			}
		}
	})
}

// A title names its record when it is a few words, or its subject word for
// word (a mulch name); a sentence of the record's own says something.
func TestTitleOnlyNames(t *testing.T) {
	for _, tc := range []struct {
		body, subject string
		want          bool
	}{
		{"recipe-default-export-strict\n\nRecipes export one default.", "", true},
		{"bd CLI JSON normalization\n\nbd show returns an array.", "bd CLI  json normalization", true},
		{"bd CLI JSON normalization\n\nbd show returns an array.", "", false},
		{"Tokens are signed with RS256 everywhere.", "jwt signing", false},
	} {
		if got := TitleOnlyNames(&Record{Body: tc.body, Subject: tc.subject}); got != tc.want {
			t.Errorf("TitleOnlyNames(%q, subject %q) = %v, want %v", tc.body, tc.subject, got, tc.want)
		}
	}
	r := &Record{Body: "bd CLI JSON normalization\n\nbd show returns an array. Unwrap it.", Subject: "bd CLI JSON normalization"}
	if got, want := TeachingOf(r, 200), "bd CLI JSON normalization: bd show returns an array."; got != want {
		t.Errorf("TeachingOf = %q, want %q", got, want)
	}
}
