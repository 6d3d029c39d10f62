package embed

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestTokensSplitIdentifiersAndKeepWords(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"advisory_lock", []string{"advisorylock", "advisory", "lock"}},
		{"PgBouncer pools connections", []string{"pgbouncer", "pg", "bouncer", "pools", "connections"}},
		{"run with --race", []string{"run", "with", "race"}},
		{"internal/session/ holds it", []string{"internalsession", "internal", "session", "holds", "it"}},
		{"HTTPServer", []string{"httpserver", "http", "server"}},
		{"sha256 of the file", []string{"sha256", "sha", "256", "of", "the", "file"}},
		{"The tests are running", []string{"the", "tests", "are", "running"}}, // no stemming, stop words kept
		{"a I x", []string{"a", "i", "x"}},                                    // one-byte tokens
		{"--dry-run, dryRun and dry_run", []string{"dryrun", "dry", "run", "dryrun", "dry", "run", "and", "dryrun", "dry", "run"}},
		{"Straße über CAFÉ", []string{"straße", "über", "café"}},
		{"...  --- //", nil},
		{"", nil},
		{strings.Repeat("x", MaxTokenLen), []string{strings.Repeat("x", MaxTokenLen)}},
		{strings.Repeat("x", MaxTokenLen+1) + " ok", []string{"ok"}},
		{"deadbeef" + strings.Repeat("0", 41) + "_Cafe", []string{"deadbeef", "cafe"}}, // whole too long, a part too long
	} {
		if got := Tokens(c.text); !slices.Equal(got, c.want) {
			t.Errorf("Tokens(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

func TestTokensSurviveBadInput(t *testing.T) {
	for _, text := range []string{"\x00\x00", "\xff\xfe bad utf8", "a*b?c[d]", string(make([]byte, 1<<20)), strings.Repeat("aB1_", 1<<16)} {
		checkTokens(t, text)
	}
	if got := Tokens("\xffrace\xff"); !slices.Equal(got, []string{"race"}) {
		t.Errorf("invalid UTF-8 around a word: %q", got)
	}
}

// checkTokens holds Tokens to its contract on text: tokens of 1 to
// MaxTokenLen bytes, valid UTF-8, lowercase letters and digits only, each
// one that Tokens gives back first.
func checkTokens(t *testing.T, text string) {
	t.Helper()
	toks := Tokens(text)
	if again := Tokens(text); !slices.Equal(toks, again) {
		t.Fatalf("Tokens(%q) differs between two calls: %q, %q", text, toks, again)
	}
	for _, tok := range toks {
		if len(tok) < 1 || len(tok) > MaxTokenLen || !utf8.ValidString(tok) {
			t.Fatalf("Tokens(%q) gave %q: want 1 to %d bytes of UTF-8", text, tok, MaxTokenLen)
		}
		if strings.IndexFunc(tok, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) >= 0 {
			t.Fatalf("Tokens(%q) gave %q: want letters and digits only", text, tok)
		}
		if strings.ToLower(tok) != tok {
			t.Fatalf("Tokens(%q) gave %q: not lowercase", text, tok)
		}
		if back := Tokens(tok); len(back) == 0 || back[0] != tok {
			t.Fatalf("Tokens(%q) gave %q, but Tokens(%q) = %q: a table could not hold it", text, tok, tok, back)
		}
	}
}

func FuzzTokens(f *testing.F) {
	for _, s := range []string{"advisory_lock PgBouncer", "HTTPServer sha256 --race", "internal/session/", "Straße ǅemal İstanbul", "\xff\xfe", "a1B2c3D4", "ΣΊΣΥΦΟΣ ǈǉ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		checkTokens(t, text)
	})
}

func BenchmarkTokens(b *testing.B) {
	text := strings.Repeat("The billing job skips tenants whose invoices are still in draft (see internal/billing/aggregate.go, BillingAggregator). ", 4)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		_ = Tokens(text)
	}
}
