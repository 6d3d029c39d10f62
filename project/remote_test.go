package project

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planq-dev/planq/planqerr"
)

func TestRemoteURLProblem(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "team.git"), 0o755); err != nil {
		t.Fatal(err)
	}
	good := []string{
		"https://github.com/acme/shop.git", "http://alice@host:8080/team.git", "ssh://git@host/team.git",
		"ssh://git@[::1]:2222/x", "git://host/x", "file:///srv/team.git", "git@github.com:acme/shop.git",
		"host:team.git", "[::1]:x", "/srv/team.git", "/does/not/exist/yet.git", "/tmp/a:b", "s3://bucket/x",
		"git+ssh://host/x", "hg::https://host/x", "custom-helper::anything",
	}
	bad := map[string]string{
		"":                   "is empty",
		"not a url at all":   "no URL with a scheme, no [user@]host:path, and no absolute path",
		"not a url: at all":  `the host "not a url" contains white space`,
		"other.git":          "no URL with a scheme",
		"-uupload-pack=evil": "starts with '-'",
		"https://":           "nothing after it",
		"https://exa mple/x": "no URL git can read",
		"https:///x":         "without a host",
		"ssh://-oProxy=x/y":  "starts with '-'",
		"git@-oProxy=x:y":    "starts with '-'",
		"@:x":                "without a host",
		"file://x":           "without a path",
		"hg::":               "no address after '::'",
		"https://host/\x01":  "control character",
	}
	for _, u := range good {
		if p := RemoteURLProblem(dir, u); p != "" {
			t.Errorf("RemoteURLProblem(%q) = %q, want none", u, p)
		}
	}
	for u, want := range bad {
		if p := RemoteURLProblem(dir, u); !strings.Contains(p, want) {
			t.Errorf("RemoteURLProblem(%q) = %q, want it to mention %q", u, p, want)
		}
	}
	// A relative path that exists is refused with its absolute form.
	err := CheckRemoteURL(dir, "team.git")
	if err == nil || !strings.Contains(err.Error(), "relative path") {
		t.Fatalf("CheckRemoteURL(team.git) = %v", err)
	}
	var pe *planqerr.Error
	if !errors.As(err, &pe) || !strings.Contains(pe.Hint, filepath.Join(dir, "team.git")) {
		t.Errorf("CheckRemoteURL(team.git): the hint does not give the absolute path: %#v", err)
	}
}

// TestRemoteTransportRefused: git's fd transport talks over planq's own
// file descriptors (a push to fd::0 waits on the terminal for ever) and ext
// runs any command; neither reaches a repository, so no remote may name
// them, in any spelling git would take.
func TestRemoteTransportRefused(t *testing.T) {
	for _, u := range []string{"fd::0", "fd::0,1", "FD::3/x", "ext::sh -c touch% /tmp/pwned", "Ext::git %s x", "ext://host/x", "fd://0"} {
		if p := RemoteURLProblem("", u); !strings.Contains(p, "transport") {
			t.Errorf("RemoteURLProblem(%q) = %q, want a refused transport", u, p)
		}
		if p := TransportProblem(u); p == "" {
			t.Errorf("TransportProblem(%q) = none", u)
		}
		err := CheckStoredRemote("remote origin", u, ".planq/config", "fix it")
		if planqerr.KindOf(err) != planqerr.Corrupt || !strings.Contains(err.Error(), "transport") {
			t.Errorf("CheckStoredRemote(%q) = %v", u, err)
		}
	}
	for _, u := range []string{"https://host/fd::0", "/srv/ext::x", "hg::https://host/x", "git@host:fd::0", "fdx::a", "/srv/team.git"} {
		if p := TransportProblem(u); p != "" {
			t.Errorf("TransportProblem(%q) = %q, want none", u, p)
		}
		if err := CheckStoredRemote("remote origin", u, ".planq/config", "fix it"); err != nil {
			t.Errorf("CheckStoredRemote(%q) = %v", u, err)
		}
	}
}
