package secrets

import (
	"reflect"
	"sort"
	"strings"
	"testing"
)

func TestScanFindsWellKnownCredentials(t *testing.T) {
	cases := map[string]string{
		"private key block":         "-----BEGIN RSA PRIVATE KEY-----\nMIIE...",
		"AWS access key id":         "key AKIAIOSFODNN7EXAMPLE here",
		"AWS secret access key":     "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
		"GitHub token":              "ghp_" + strings.Repeat("a1B2", 9),
		"GitHub fine-grained token": "github_pat_" + strings.Repeat("A1b2_", 14),
		"GitLab token":              "glpat-" + strings.Repeat("x", 20),
		"Slack token":               "xoxb-123456789012-abcdefghij",
		"Google API key":            "AIza" + strings.Repeat("B", 35),
		"Stripe secret key":         "sk_live_" + strings.Repeat("4", 24),
		"Anthropic API key":         "sk-ant-api03-" + strings.Repeat("z", 30),
		"npm token":                 "npm_" + strings.Repeat("q", 36),
		"JSON web token":            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
	}
	for rule, text := range cases {
		found := Scan("line one\n" + text + "\n")
		if len(found) == 0 || found[0].Rule != rule || found[0].Line != 2 {
			t.Errorf("%s: Scan = %+v, want rule %q on line 2", rule, found, rule)
		}
	}
}

func TestScanLeavesProseAlone(t *testing.T) {
	for _, text := range []string{
		"Use RS256 over HS256 because of public-key verification.",
		"The AKIA prefix marks AWS keys; rotate them quarterly.",
		"set GITHUB_TOKEN in the CI secrets, never in the repo",
		"sk-this-is-not-a-key",
		"-----BEGIN PUBLIC KEY-----",
		"commit 3f9a1c2e4b7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f fixed it",
	} {
		if found := Scan(text); len(found) > 0 {
			t.Errorf("Scan(%q) = %+v, want nothing", text, found)
		}
	}
}

// FuzzScanMatchesEveryPattern holds the keyword filter to what it stands
// for: Scan finds exactly what running every rule's pattern over the text
// finds, so a keyword that a match can lack shows up here.
func FuzzScanMatchesEveryPattern(f *testing.F) {
	for _, seed := range []string{"ghp_" + strings.Repeat("a", 36), "AWS_Secret_Access_Key = " + strings.Repeat("A", 40),
		"xoxb-1234567890-abc", "-----BEGIN RSA PRIVATE KEY-----", "npm_" + strings.Repeat("0", 36), "plain prose, nothing secret",
		"eyJhbGciOiJIUzI1.eyJzdWIiOiIxMjM0.SflKxwRJSMeKKF2QT4"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var want []Finding
		for _, r := range rules() {
			for _, loc := range r.re().FindAllStringIndex(text, -1) {
				want = append(want, Finding{Rule: r.name, Line: 1 + strings.Count(text[:loc[0]], "\n"), Text: text[loc[0]:loc[1]]})
			}
		}
		sort.SliceStable(want, func(i, j int) bool { return want[i].Line < want[j].Line })
		if got := Scan(text); !reflect.DeepEqual(got, want) {
			t.Fatalf("Scan(%q) = %v, every pattern finds %v", text, got, want)
		}
	})
}
