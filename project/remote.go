package project

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/planq-dev/planq/planqerr"
)

// networkSchemes are git's own transports that name a host.
var networkSchemes = map[string]bool{"ssh": true, "git": true, "http": true, "https": true, "ftp": true, "ftps": true}

// RemoteURLProblem says why raw is no team remote git can reach, or returns
// "" for one it can. It takes what git takes: a URL with a scheme
// (ssh://, https://, file://, or a remote helper's scheme), helper::address,
// scp-like [user@]host:path, and an absolute path. A relative path is
// refused even where git would take it: git fetches from inside the state
// repository, where it would mean another place, and the path goes into the
// config every clone reads.
func RemoteURLProblem(dir, raw string) string {
	switch {
	case strings.TrimSpace(raw) == "":
		return "is empty"
	case strings.HasPrefix(raw, "-"):
		return "starts with '-', which git would read as an option"
	case strings.ContainsFunc(raw, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return "contains a control character"
	}
	if problem := TransportProblem(raw); problem != "" {
		return problem
	}
	if scheme, rest, ok := strings.Cut(raw, "://"); ok && validScheme(scheme) {
		return schemeURLProblem(strings.ToLower(scheme), raw, rest)
	}
	if helper, address, ok := strings.Cut(raw, "::"); ok && validScheme(helper) {
		if address == "" {
			return fmt.Sprintf("names the remote helper %q but no address after '::'", helper)
		}
		return ""
	}
	if userHost, ok := scpHost(raw); ok {
		return scpProblem(userHost)
	}
	if filepath.IsAbs(raw) {
		return ""
	}
	if _, err := os.Stat(filepath.Join(dir, raw)); err == nil {
		return "is a relative path; git would read it from inside the state repository"
	}
	return "is no URL with a scheme, no [user@]host:path, and no absolute path"
}

// refusedTransports are git's transports that reach no repository: fd
// talks over the file descriptors planq's git inherits (a push to fd::0
// waits on the terminal for ever), ext runs any command the URL names
// (git itself refuses it unless told). planq refuses both wherever a
// remote URL comes in, and tells git to refuse them on every fetch and
// push (staterepo), for a URL written into a config by hand.
var refusedTransports = map[string]string{
	"fd":  "talks over the file descriptors planq runs git with, not to a repository",
	"ext": "runs the command the URL names, not a repository",
}

// TransportProblem says why raw names a git transport planq refuses
// (fd::, ext::, or the same as a scheme), or "" when it does not.
func TransportProblem(raw string) string {
	name, _, ok := strings.Cut(raw, "::")
	if !ok || !validScheme(name) {
		name, _, ok = strings.Cut(raw, "://")
	}
	if !ok || !validScheme(name) {
		return ""
	}
	name = strings.ToLower(name)
	if why, refused := refusedTransports[name]; refused {
		return fmt.Sprintf("uses git's %s transport, which %s; planq refuses it", name, why)
	}
	return ""
}

// CheckStoredRemote refuses the remote URL read from where (a file a
// person, or a clone of someone else's code, wrote: .planq/config,
// user.yaml, a state repository's config) when its transport is one
// planq never runs (TransportProblem); subject names the remote, hint
// says how to fix it.
func CheckStoredRemote(subject, url, where, hint string) error {
	problem := TransportProblem(url)
	if problem == "" {
		return nil
	}
	return planqerr.New(planqerr.Corrupt, subject, "%s names %q; it %s", where, url, problem).
		WithHint("%s", hint)
}

// validScheme is git's test of a URL scheme: a letter, then letters,
// digits, '+', '-' and '.'.
func validScheme(s string) bool {
	if s == "" || !isLetter(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !isLetter(c) && (c < '0' || c > '9') && c != '+' && c != '-' && c != '.' {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func schemeURLProblem(scheme, raw, rest string) string {
	if rest == "" {
		return fmt.Sprintf("has the scheme %s:// and nothing after it", scheme)
	}
	if scheme == "file" {
		if !strings.Contains(rest, "/") {
			return "is a file:// URL without a path"
		}
		return ""
	}
	if !networkSchemes[scheme] {
		return "" // a remote helper's URL: git-remote-<scheme> reads it
	}
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Sprintf("is no URL git can read: %s", strings.TrimPrefix(err.Error(), fmt.Sprintf("parse %q: ", raw)))
	}
	if u.Hostname() == "" {
		return fmt.Sprintf("is a %s:// URL without a host", scheme)
	}
	if strings.HasPrefix(u.Hostname(), "-") {
		return "names a host that starts with '-', which git refuses"
	}
	return ""
}

// scpHost finds the [user@]host of an scp-like address as git does: a
// colon before any slash, after a bracketed host when there is one.
func scpHost(raw string) (string, bool) {
	search := 0
	if strings.HasPrefix(raw, "[") {
		if end := strings.IndexByte(raw, ']'); end > 0 {
			search = end
		}
	}
	colon := strings.IndexByte(raw[search:], ':')
	if colon < 0 || strings.Contains(raw[:search+colon], "/") {
		return "", false
	}
	return raw[:search+colon], true
}

// scpProblem checks the [user@]host of an scp-like address.
func scpProblem(userHost string) string {
	host := userHost[strings.LastIndexByte(userHost, '@')+1:]
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	switch {
	case host == "":
		return "is [user@]host:path without a host"
	case strings.ContainsAny(host, " \t"):
		return fmt.Sprintf("reads as [user@]host:path, and the host %q contains white space", host)
	case strings.HasPrefix(host, "-"):
		return "names a host that starts with '-', which git refuses"
	}
	return ""
}

// CheckRemoteURL refuses a team remote git could not reach by its shape
// alone (RemoteURLProblem), before anything is written; dir is where a
// relative path is looked for, to show it made absolute.
func CheckRemoteURL(dir, raw string) error {
	problem := RemoteURLProblem(dir, raw)
	if problem == "" {
		return nil
	}
	hint := "give a URL git can fetch from: https://host/team/repo.git, ssh://git@host/team/repo.git, git@host:team/repo.git, or an absolute path to a bare repository"
	if !filepath.IsAbs(raw) && !strings.Contains(raw, ":") {
		if abs, err := filepath.Abs(filepath.Join(dir, raw)); err == nil {
			if _, err := os.Stat(abs); err == nil {
				hint = "give it as an absolute path: " + abs
			}
		}
	}
	return planqerr.New(planqerr.Invalid, fmt.Sprintf("remote %q", raw), "%s", problem).WithHint("%s", hint)
}
