package project

import (
	"path"
	"strings"
)

// RepoPathProblem says why p names no file or directory inside a
// repository's work tree, or "" when it does: p must be relative,
// slash-separated, clean, on one line, without surrounding spaces, with no
// ".", "..", ".git" or empty element. Records' anchors, proposals' files
// and the configured instruction files are all held to it.
func RepoPathProblem(p string) string {
	switch {
	case p == "":
		return "is empty"
	case strings.HasPrefix(p, "/"):
		return "is absolute; name it from the repository's root"
	case strings.ContainsAny(p, "\n\r\x00"):
		return "holds a line break or a NUL byte"
	case strings.Contains(p, `\`):
		return `holds a backslash; separate directories with "/"`
	case strings.TrimSpace(p) != p:
		return "starts or ends with white space"
	}
	for _, el := range strings.Split(p, "/") {
		switch {
		case el == "..":
			return `leaves the repository ("..")`
		case strings.EqualFold(el, ".git"):
			return "is under .git, git's own files"
		}
	}
	if path.Clean(p) != p || p == "." {
		return "is not a clean path (an empty or \".\" element, or a trailing \"/\")"
	}
	return ""
}

// ValidRepoPath reports whether p names a file or directory inside a
// repository's work tree (see RepoPathProblem).
func ValidRepoPath(p string) bool { return RepoPathProblem(p) == "" }
