package changelog

import (
	"path"
	"strings"

	"github.com/planq-dev/planq/planqerr"
)

// ParseAnchor reads a file a learning cites, "PATH" or "PATH:FROM-TO"
// (1-based lines, inclusive), relative to the code repository's root. A
// leading "./" is dropped; anything that leaves the repository is refused.
func ParseAnchor(arg string) (Anchor, error) {
	p, lines := cleanPath(arg), ""
	if i := strings.LastIndexByte(p, ':'); i >= 0 && i+1 < len(p) && strings.Trim(p[i+1:], "0123456789-") == "" {
		// A suffix of digits is a line range, or a mistake: not a file name.
		if _, _, ok := ParseLines(p[i+1:]); !ok {
			return Anchor{}, planqerr.New(planqerr.Invalid, "--file "+arg, "lines %q are not FROM-TO (1-based, FROM <= TO)", p[i+1:]).
				WithHint("give the lines as 40-62, or one line as 40")
		}
		p, lines = cleanPath(p[:i]), p[i+1:]
	}
	a := Anchor{Path: p, Lines: lines}
	if err := a.Check(); err != nil {
		return Anchor{}, planqerr.New(planqerr.Invalid, "--file "+arg, "%v", err).
			WithHint("name a file of the code repository by its path from the root, with lines if you like: internal/auth/jwt.go:40-62")
	}
	return a, nil
}

// cleanPath is p without surrounding space, a leading "./" or redundant
// separators; a path with a backslash is left for Check to refuse.
func cleanPath(p string) string {
	p = strings.TrimPrefix(strings.TrimSpace(p), "./")
	if p == "" || strings.Contains(p, "\\") {
		return p
	}
	return strings.TrimSpace(path.Clean(p))
}

// AnchorsOf makes the anchors of a learning from the files it cites
// (PATH[:FROM-TO]) and its evidence's files: each path once, the first
// mention's lines kept.
func AnchorsOf(files, evidence []string) ([]Anchor, error) {
	var out []Anchor
	seen := map[string]bool{}
	for _, f := range append(append([]string(nil), files...), evidence...) {
		if strings.TrimSpace(f) == "" {
			continue
		}
		a, err := ParseAnchor(f)
		if err != nil {
			return nil, err
		}
		if !seen[a.Path] {
			seen[a.Path] = true
			out = append(out, a)
		}
	}
	return out, nil
}

// String is the anchor as --file takes it.
func (a Anchor) String() string {
	if a.Lines == "" {
		return a.Path
	}
	return a.Path + ":" + a.Lines
}
