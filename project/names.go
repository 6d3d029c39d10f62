package project

import (
	"strings"

	"github.com/planq-dev/planq/planqerr"
)

// MaxNameLen keeps names short enough for branch names, paths and tmux sessions.
const MaxNameLen = 40

// NameProblem says what is wrong with an agent, project, domain or checkpoint
// name, or returns "" for a good one. Names become branch names and path
// components, so only letters, digits, '-' and '_' are allowed, starting with
// a letter or digit.
func NameProblem(name string) string {
	if p := nameShapeProblem(name); p != "" {
		return p
	}
	for _, r := range name {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_'
		if !ok {
			return "name contains " + `"` + string(r) + `"`
		}
	}
	if name == UserLayerName {
		return "name is reserved for the user layer"
	}
	if name[0] == '_' {
		return "name starts with '_'"
	}
	return ""
}

// nameShapeProblem is what is wrong with a name as a whole, before its
// characters are looked at one by one.
func nameShapeProblem(name string) string {
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
	return ""
}

// ValidName reports whether name is a good agent, project, domain or
// checkpoint name.
func ValidName(name string) bool { return NameProblem(name) == "" }

// ValidateName checks an agent, project or domain name and explains what is
// wrong with a bad one.
func ValidateName(what, name string) error {
	problem := NameProblem(name)
	if problem == "" {
		return nil
	}
	return planqerr.New(planqerr.Invalid, what+` "`+name+`"`, "%s", problem).
		WithHint("use letters, digits, '-' and '_', starting with a letter or digit (at most %d characters)", MaxNameLen)
}

// ValidateAgentName checks a new agent's name: a good name (ValidateName)
// other than "global", in any case. global is the team's branch, and the
// name its writer and reader go by where no agent is mounted: an agent
// called global could be told apart from neither.
func ValidateAgentName(name string) error {
	if err := ValidateName("agent", name); err != nil {
		return err
	}
	if strings.EqualFold(name, GlobalBranch) {
		return planqerr.New(planqerr.Invalid, `agent "`+name+`"`, "is reserved: it names the team's branch, %s", GlobalBranch).
			WithHint("pick another name, like %s-1 or the work it does: planq create NAME", GlobalBranch)
	}
	return nil
}
