package project

import (
	"net/url"
	"strings"

	"github.com/planq-dev/planq/internal/secrets"
	"github.com/planq-dev/planq/planqerr"
)

// CheckRemoteCredential refuses a team remote URL that carries a credential: a
// password (https://alice:secret@host/team.git), a token as the user name
// (https://ghp_...@github.com/...), or a token in the query
// (https://host/team.git?token=...). planq writes the team remote into
// .planq/config, which the code repository tracks and its clones share, and
// logs it; git's credential helpers keep a secret out of both. A user name
// alone (ssh://git@host/x.git, alice@host:x.git) is fine.
//
// again is the command to run once the credential is out, with one %s for
// the URL without it.
func CheckRemoteCredential(url, again string) error {
	return checkCredential(url, "planq would write it into .planq/config, which git tracks", again)
}

// CheckUserRemoteCredential is CheckRemoteCredential for the user layer's
// remote, which planq keeps in $PLANQ_HOME/user.yaml and logs.
func CheckUserRemoteCredential(url, again string) error {
	return checkCredential(url, "planq would write it into "+UserConfigFile+" and its logs", again)
}

func checkCredential(url, why, again string) error {
	masked, stripped, has := withoutCredential(url)
	if !has {
		return nil
	}
	return planqerr.New(planqerr.Invalid, "remote URL "+masked, "carries a password or token; %s", why).
		WithHint("leave it out and let git's credential helper supply it (git config --global credential.helper store, or cache, osxkeychain, manager, libsecret), then: "+again, stripped)
}

// withoutCredential tells whether url carries a credential in its user
// part or its query, and returns url with it masked ("***"), to show, and
// without it, to use.
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
	maskedAuth, strippedAuth := authority, authority
	if at := strings.LastIndex(authority, "@"); at >= 0 {
		userinfo, host := authority[:at], authority[at+1:]
		user, password, _ := strings.Cut(userinfo, ":")
		switch {
		case looksSecret(user):
			maskedAuth, strippedAuth, has = "***@"+host, host, true
		case password != "":
			maskedAuth, strippedAuth, has = user+":***@"+host, user+"@"+host, true
		}
	}
	maskedPath, strippedPath, inQuery := withoutQueryCredential(path)
	if !has && !inQuery {
		return url, url, false
	}
	return scheme + "://" + maskedAuth + maskedPath, scheme + "://" + strippedAuth + strippedPath, true
}

// withoutQueryCredential finds the parameters of path's query that carry a
// credential, by their name or by what they hold, and returns path with
// their values masked, and without them.
func withoutQueryCredential(path string) (masked, stripped string, has bool) {
	before, query, ok := strings.Cut(path, "?")
	if !ok {
		return path, path, false
	}
	query, fragment, hasFragment := strings.Cut(query, "#")
	var shown, kept []string
	for _, param := range strings.Split(query, "&") {
		key, value, _ := strings.Cut(param, "=")
		k, kerr := url.QueryUnescape(key)
		v, verr := url.QueryUnescape(value)
		if kerr != nil || verr != nil {
			k, v = key, value
		}
		if value != "" && (credentialParam(k) || looksSecret(v)) {
			has = true
			shown = append(shown, key+"=***")
			continue
		}
		shown = append(shown, param)
		kept = append(kept, param)
	}
	if !has {
		return path, path, false
	}
	tail := ""
	if hasFragment {
		tail = "#" + fragment
	}
	masked = before + "?" + strings.Join(shown, "&") + tail
	stripped = before + tail
	if len(kept) > 0 {
		stripped = before + "?" + strings.Join(kept, "&") + tail
	}
	return masked, stripped, true
}

// credentialParam reports whether a query parameter's name says it holds
// a credential: a token, a key, a password, a signature (presigned URLs).
func credentialParam(name string) bool {
	name = strings.ToLower(name)
	switch name {
	case "key", "sig", "pwd", "pass", "auth", "code":
		return true
	}
	for _, part := range []string{"token", "secret", "passw", "apikey", "api_key", "api-key", "signature", "credential", "authorization"} {
		if strings.Contains(name, part) {
			return true
		}
	}
	return false
}

func looksSecret(s string) bool { return len(secrets.Scan(s)) > 0 }
