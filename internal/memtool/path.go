package memtool

import (
	"net/url"
	"strconv"
	"strings"
	"unicode"

	"github.com/planq-dev/planq/planqerr"
)

// Root is the protocol's top directory: every path a command names is it
// or under it.
const Root = "/memories"

// Rel maps a protocol path to a slash-separated path relative to the
// memories folder, "" for the folder itself. It refuses, with the answer
// the model is shown, a path outside Root, one that climbs (a ".."
// component, also URL-encoded or with backslashes), and one with a hidden
// component (".git" among them), which no listing would show, a control
// character anywhere (a newline or an ESC would forge lines and terminal
// sequences in every listing and log that shows the name), and a name
// longer than MaxName. A trailing slash and repeated slashes are accepted:
// "/memories/repo/" is "repo".
//
// Rel reads no file: symbolic links are refused where the folder is read
// (see Folder.locate).
func Rel(p string) (string, error) {
	if i := strings.IndexFunc(p, unicode.IsControl); i >= 0 {
		r := []rune(p[i:])[0]
		return "", refusef(planqerr.Invalid, "Error: The path %s contains a control character (%s); names under %s are printable text",
			strconv.Quote(p), strings.Trim(strconv.QuoteRune(r), "'"), Root)
	}
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

// MaxName bounds one name under Root, in bytes: file systems hold 255, and
// a file is written through a temporary name beside it ("." + name + up
// to 19 digits, see internal/atomicfile), which must fit too.
const MaxName = 255 - len(".") - 19

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
	case len(c) > MaxName:
		return refusef(planqerr.Invalid, "Error: The path %s has a name too long for the file system: %d bytes, where a name holds at most %d", p, len(c), MaxName)
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
