package memtool

import (
	"net/url"
	"strings"

	"github.com/planq-dev/planq/planqerr"
)

// Root is the protocol's top directory: every path a command names is it
// or under it.
const Root = "/memories"

// Rel maps a protocol path to a slash-separated path relative to the
// memories folder, "" for the folder itself. It refuses, with the answer
// the model is shown, a path outside Root, one that climbs (a ".."
// component, also URL-encoded or with backslashes), and one with a hidden
// component (".git" among them), which no listing would show. A trailing
// slash and repeated slashes are accepted: "/memories/repo/" is "repo".
//
// Rel reads no file: symbolic links are refused where the folder is read
// (see Folder.locate).
func Rel(p string) (string, error) {
	rest, ok := strings.CutPrefix(p, Root)
	if !ok || (rest != "" && rest[0] != '/') {
		return "", refusef(planqerr.Invalid, "Error: The path %s is outside %s; every path starts with %s/", p, Root, Root)
	}
	var parts []string
	for _, c := range strings.Split(rest, "/") {
		if c == "" {
			continue
		}
		if err := checkComponent(p, c); err != nil {
			return "", err
		}
		parts = append(parts, c)
	}
	return strings.Join(parts, "/"), nil
}

// checkComponent refuses one name of a path: climbing, hidden, or holding
// what no portable file name holds.
func checkComponent(p, c string) error {
	decoded, err := url.PathUnescape(c)
	if err != nil {
		decoded = c
	}
	switch {
	case c == ".." || decoded == ".." || strings.Contains(c, `\`) || strings.Contains(decoded, "/") || strings.Contains(decoded, `\`):
		return refusef(planqerr.Invalid, "Error: Path %s would escape %s directory", p, Root)
	case strings.HasPrefix(c, ".") || strings.HasPrefix(decoded, "."):
		return refusef(planqerr.Invalid, "Error: The path %s names a hidden file or directory; names under %s do not start with '.'", p, Root)
	case strings.ContainsRune(c, 0):
		return refusef(planqerr.Invalid, "Error: The path %s contains a NUL byte", p)
	}
	return nil
}

// display is the protocol path of rel, as listings show it.
func display(rel string) string {
	if rel == "" {
		return Root
	}
	return Root + "/" + rel
}
