package project

import (
	"errors"
	"strings"
	"testing"

	"github.com/planq-dev/planq/planqerr"
)

func TestCheckRemoteCredential(t *testing.T) {
	for _, c := range []struct{ url, masked string }{
		{"http://alice:secret@host/team.git", "http://alice:***@host/team.git"},
		{"https://alice:s3cr%40t@host:8443/a/b.git?x=1", "https://alice:***@host:8443/a/b.git?x=1"},
		{"https://ghp_0123456789abcdefghijABCDEFGHIJ0123456789@github.com/acme/shop.git", "https://***@github.com/acme/shop.git"},
		{"https://x-access-token:ghp_0123456789abcdefghijABCDEFGHIJ0123456789@github.com/a.git", "https://x-access-token:***@github.com/a.git"},
		{"ssh://git@host/x.git", ""},
		{"ssh://git@host:22/x.git", ""},
		{"git@github.com:acme/shop.git", ""},
		{"https://alice:@host/x.git", ""},
		{"https://host/path/with@sign.git", ""},
		{"/srv/git/team.git", ""},
		{"file:///srv/git/team.git", ""},
		{"http://[::1]:8080/team.git", ""},
		// A token in the query is one as well, whatever the parameter's
		// name when it looks like one.
		{"https://h/x.git?token=abc", "https://h/x.git?token=***"},
		{"https://h/x.git?ref=main&private_token=abc#frag", "https://h/x.git?ref=main&private_token=***#frag"},
		{"https://alice:pw@h/x.git?access_token=abc", "https://alice:***@h/x.git?access_token=***"},
		{"https://h/x.git?sig=abc&X-Amz-Signature=def", "https://h/x.git?sig=***&X-Amz-Signature=***"},
		{"https://h/x.git?v=ghp_0123456789abcdefghijABCDEFGHIJ0123456789", "https://h/x.git?v=***"},
		{"https://h/x.git?ref=main", ""},
		{"https://h/x.git?token=", ""},
		{"https://h/x.git?", ""},
	} {
		err := CheckRemoteCredential(c.url, "planq state remote add origin %s")
		switch {
		case c.masked == "" && err != nil:
			t.Errorf("%s: refused: %v", c.url, err)
		case c.masked != "" && err == nil:
			t.Errorf("%s: accepted", c.url)
		case c.masked != "" && !strings.Contains(err.Error(), c.masked):
			t.Errorf("%s: %v does not show %s", c.url, err, c.masked)
		}
	}
}

// TestCheckRemoteCredentialStripsQuery: the hint's command carries the URL
// without the credential, the rest of the query kept.
func TestCheckRemoteCredentialStripsQuery(t *testing.T) {
	for url, want := range map[string]string{
		"https://h/x.git?token=abc":                       "planq user remote https://h/x.git",
		"https://h/x.git?ref=main&token=abc":              "planq user remote https://h/x.git?ref=main",
		"https://bob:pw@h/x.git?api_key=abc&ref=main#top": "planq user remote https://bob@h/x.git?ref=main#top",
	} {
		err := CheckRemoteCredential(url, "planq user remote %s")
		var pe *planqerr.Error
		if !errors.As(err, &pe) || !strings.HasSuffix(pe.Hint, "then: "+want) {
			t.Errorf("%s: %v: hint does not end with %q", url, err, want)
			continue
		}
		if strings.Contains(err.Error()+pe.Hint, "abc") || strings.Contains(err.Error()+pe.Hint, "pw") {
			t.Errorf("%s: the secret shows: %v / %s", url, err, pe.Hint)
		}
	}
}
