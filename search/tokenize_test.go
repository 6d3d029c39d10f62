package search

import (
	"slices"
	"testing"
)

func TestTermsSplitIdentifiersAndStem(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"advisory_lock", []string{"advisorylock", "advisori", "lock"}},
		{"PgBouncer pools connections", []string{"pgbouncer", "pg", "bouncer", "pool", "connect"}},
		{"run with --race", []string{"run", "race"}},
		{"internal/session/ holds it", []string{"internalsession", "intern", "session", "hold"}},
		{"HTTPServer", []string{"httpserver", "http", "server"}},
		{"sha256 of the file", []string{"sha256", "sha", "256", "file"}},
		{"The tests are running", []string{"test", "run"}},
		{"", nil},
	} {
		if got := Terms(c.text); !slices.Equal(got, c.want) {
			t.Errorf("Terms(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

func TestTermsSurviveBadInput(t *testing.T) {
	for _, text := range []string{"\x00\x00", "\xff\xfe bad utf8", "a*b?c[d]", string(make([]byte, 1<<20))} {
		_ = Terms(text) // must not panic
	}
	if got := Terms("\xffrace\xff"); !slices.Equal(got, []string{"race"}) {
		t.Errorf("invalid UTF-8 around a word: %q", got)
	}
}
