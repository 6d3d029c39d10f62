package project

import (
	"strings"

	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/secrets"
)

// CheckRemoteCredential refuses a team remote URL that carries a credential: a
// password (https://alice:secret@host/team.git) or a token as the user name
// (https://ghp_...@github.com/...). planq writes the team remote into
// .planq/config, which the code repository tracks and its clones share, and
// logs it; git's credential helpers keep a secret out of both. A user name
// alone (ssh://git@host/x.git, alice@host:x.git) is fine.
//
// again is the command to run once the credential is out, with one %s for
// the URL without it.
func CheckRemoteCredential(url, again string) error {
	masked, stripped, has := withoutCredential(url)
	if !has {
		return nil
	}
	return planqerr.New(planqerr.Invalid, "remote URL "+masked, "carries a password or token; planq would write it into .planq/config, which git tracks").
		WithHint("leave it out and let git's credential helper supply it (git config --global credential.helper store, or cache, osxkeychain, manager, libsecret), then: "+again, stripped)
}

// withoutCredential tells whether url carries a credential in its user
// part, and returns url with it masked ("***"), to show, and without it, to
// use.
func withoutCredential(url string) (masked, stripped string, has bool) {
	scheme, rest, ok := strings.Cut(url, "://")
	if !ok {
		// scp-like syntax (user@host:path) has no place for a password; a
		// token as the user name is still one.
		if user, host, ok := strings.Cut(url, "@"); ok && !strings.Contains(user, "/") && looksSecret(user) {
			return "***@" + host, host, true
		}
		return url, url, false
	}
	authority, path := rest, ""
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		authority, path = rest[:i], rest[i:]
	}
	at := strings.LastIndex(authority, "@")
	if at < 0 {
		return url, url, false
	}
	userinfo, host := authority[:at], authority[at+1:]
	user, password, _ := strings.Cut(userinfo, ":")
	switch {
	case looksSecret(user):
		return scheme + "://***@" + host + path, scheme + "://" + host + path, true
	case password != "":
		return scheme + "://" + user + ":***@" + host + path, scheme + "://" + user + "@" + host + path, true
	}
	return url, url, false
}

func looksSecret(s string) bool { return len(secrets.Scan(s)) > 0 }
