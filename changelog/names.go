package changelog

import "strings"

// MaxNameLen keeps names short enough for branch names, paths and tmux sessions.
const MaxNameLen = 40

// NameProblem says what is wrong with an agent, project, domain or checkpoint
// name, or returns "" for a good one. Names become branch names and path
// components, so only letters, digits, '-' and '_' are allowed, starting with
// a letter or digit.
func NameProblem(name string) string {
	switch {
	case name == "":
		return "name is empty"
	case strings.Contains(name, "/") || strings.Contains(name, `\`):
		return "name contains a path separator"
	case strings.Contains(name, ".."):
		return "name contains '..'"
	case strings.ContainsAny(name, " \t\r\n"):
		return "name contains white space"
	case strings.HasPrefix(name, "-"):
		return "name starts with '-'"
	case len(name) > MaxNameLen:
		return "name is longer than 40 characters"
	}
	for _, r := range name {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_'
		if !ok {
			return "name contains " + `"` + string(r) + `"`
		}
	}
	if name[0] == '_' {
		return "name starts with '_'"
	}
	return ""
}

func validAgentName(s string) bool { return NameProblem(s) == "" }
