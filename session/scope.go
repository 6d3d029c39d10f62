package session

import (
	"strings"

	"github.com/planq-dev/planq/planqerr"
)

// Scope is where a capability reads or writes, with one meaning in every
// front end (the command line's --scope, the MCP tools' "scope").
type Scope string

const (
	// ScopeAgent is one agent's branch of this project.
	ScopeAgent Scope = "agent"
	// ScopeGlobal is this project's team branch, global.
	ScopeGlobal Scope = "global"
	// ScopeProject is this project: the agent's branch and global (and,
	// for a search, every branch of it). A write to the project is the
	// agent's.
	ScopeProject Scope = "project"
	// ScopeUser is the user layer: the person's own memory across
	// projects.
	ScopeUser Scope = "user"
	// ScopeAll is this project, every other project that did not opt out,
	// and the user layer.
	ScopeAll Scope = "all"
)

// ParseScope reads a scope a front end was given; what counts as given is
// one of allowed (every scope when none is listed), and "" is def.
func ParseScope(given string, def Scope, allowed ...Scope) (Scope, error) {
	if given == "" {
		return def, nil
	}
	if len(allowed) == 0 {
		allowed = []Scope{ScopeAgent, ScopeGlobal, ScopeProject, ScopeUser, ScopeAll}
	}
	names := make([]string, len(allowed))
	for i, s := range allowed {
		if string(s) == given {
			return s, nil
		}
		names[i] = string(s)
	}
	return "", planqerr.New(planqerr.Invalid, "scope", "%q is not a scope here", given).
		WithHint("use one of: %s", strings.Join(names, ", "))
}
