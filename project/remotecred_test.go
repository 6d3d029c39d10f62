package project

import (
	"strings"
	"testing"
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
